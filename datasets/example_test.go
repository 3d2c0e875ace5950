package datasets_test

import (
	"fmt"

	"github.com/twintorus/twintorus/datasets"
)

// The thesis' Table 1.1 beside the report's Table 8 formula at k = 4.
func ExampleReferences() {
	refs, err := datasets.References("3dt-configurations")
	if err != nil {
		panic(err)
	}
	for _, label := range []string{"A", "B", "C"} {
		th, _ := datasets.Find(refs, "th-table1.1-"+label+"-paths")
		tr, _ := datasets.Find(refs, "tr-table8-"+th.Configuration+"-k4")
		fmt.Printf("%s (thesis %s): %v paths, report formula %v, %s line %d\n",
			th.Topology, label, th.Value, tr.Value, th.File, th.Line)
	}
	// Output:
	// twin:4x4x4/A (thesis A): 93 paths, report formula 93, 000_147dd827e2059e74.txt line 398
	// twin:4x4x4/C (thesis B): 79 paths, report formula 79, 000_147dd827e2059e74.txt line 408
	// twin:4x4x4/D (thesis C): 49 paths, report formula 49, 000_147dd827e2059e74.txt line 418
}

// The simulation claims with a range, for the bubble scheme.
func ExampleFilter() {
	refs := datasets.MustReferences("3dt-configurations")
	for _, r := range datasets.Filter(refs, func(r datasets.Reference) bool {
		return r.Source == "[TR]" && r.Scheme == "bubble" && r.HasRange()
	}) {
		fmt.Printf("%s: %s, %v-%v %s\n", r.Topology, r.Quantity, r.Low, r.High, r.Unit)
	}
	// Output:
	// twin:4x4x4/D: saturation throughput gain of D over the other configurations, 10-23 %
	// twin:5x5x5/D: saturation throughput gain of D over the other configurations, 15-33 %
	// twin:4x4x4/D: network latency reduction of D vs the other configurations, 5-20 %
	// twin:4x4x4/D: end-to-end latency reduction of D vs the other configurations, 20-40 %
	// twin:5x5x5/D: network latency reduction of D vs the other configurations, 12-28 %
	// twin:5x5x5/D: end-to-end latency reduction of D vs the other configurations, 30-50 %
}
