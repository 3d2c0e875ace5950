package topology

import "testing"

// BenchmarkBuild times building a large network through the Builder (every family
// builds through one), validation included.
func BenchmarkBuild(b *testing.B) {
	for _, spec := range []string{"twin:32x32x32/D", "torus:64x64x16"} {
		b.Run(spec, func(b *testing.B) {
			s := MustParse(spec)
			for b.Loop() {
				if _, err := Build(s); err != nil {
					b.Fatal(err)
				}
			}
			n := MustNew(spec)
			b.ReportMetric(float64(n.TotalPorts())*float64(b.N)/b.Elapsed().Seconds(), "ports/s")
		})
	}
}
