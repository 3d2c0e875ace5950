package workload

import "testing"

// Building the programs of a large collective: the 1,024-task All2All has about a
// million messages, all to distinct pairs (issue 12 builds the 4,096-task ones, 16
// times as many).
func BenchmarkBuildAlltoall1024(b *testing.B) {
	for _, spec := range []string{"alltoall:pairwise:512B", "allgather:ring:512B"} {
		b.Run(spec, func(b *testing.B) {
			s, err := ParseSpec(spec)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var msgs int
			for b.Loop() {
				w, err := s.Build(1024)
				if err != nil {
					b.Fatal(err)
				}
				msgs = w.Messages()
			}
			b.ReportMetric(float64(msgs)*float64(b.N)/b.Elapsed().Seconds(), "messages/s")
		})
	}
}
