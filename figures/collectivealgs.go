package figures

import (
	"fmt"
	"strings"

	"github.com/twintorus/twintorus/sim/workload"
)

// CollectiveOptions are the choices the papers leave open that their collective tables
// (the EXTOLL paper's Tables 2–3, the nDT paper's Tables 2–3) read.
type CollectiveOptions struct {
	// AllGather is the algorithm of the tables' AllGather rows: one of sim/workload's
	// (ring, neighbor, recursive_doubling, bruck, linear), or OpenMPIAllGather for the
	// one Open MPI's tuned component picks for the size. "" is DefaultAllGather.
	AllGather string
	// Tie is the tie rule the 5DT columns read (the 3D tori keep + ties); "" reads
	// the runs of each routing's own rule: mirror for TSDOR (the EXTOLL tables), plus
	// for DORT (the nDT tables).
	Tie string
}

// DefaultAllGather is the AllGather the tables read by default: basic linear, a gather
// into rank 0 followed by a broadcast of all the blocks. Neither paper names its
// algorithm, but the EXTOLL paper defines the AllGather of the same traces as "a gather
// communication followed by a broadcast communication" ([EXT] §4.2.2, footnote 15) and
// shows heavy gather traffic into task 0 (Fig. 10a); and the tables agree with it where
// Open MPI's default does not: the EXTOLL paper's 3D execution times (16 B and 512 B)
// are basic linear's bound at the root's NIC, and the nDT paper's grow 2.44× and 2.36×
// per doubling of the 3D torus, as basic linear's do (docs/model.md).
const DefaultAllGather = "linear"

// OpenMPIAllGather names Open MPI's default choice (coll_tuned_decision_fixed.c, 1.6
// series): recursive doubling (P a power of two, else Bruck) when all P blocks total
// under 50,000 bytes, else neighbour exchange (P even, else ring).
const OpenMPIAllGather = "openmpi"

// AllGatherAlgorithms are the values CollectiveOptions.AllGather accepts.
func AllGatherAlgorithms() []string {
	out := []string{OpenMPIAllGather}
	for _, a := range workload.Algorithms() {
		if op, alg, _ := strings.Cut(a, ":"); op == "allgather" {
			out = append(out, alg)
		}
	}
	return out
}

// allGather resolves the option: the algorithm and whether it is known.
func (o CollectiveOptions) allGather() (string, error) {
	a := strings.ToLower(strings.TrimSpace(o.AllGather))
	if a == "" {
		return DefaultAllGather, nil
	}
	if a == OpenMPIAllGather {
		return a, nil
	}
	if _, err := workload.ParseSpec("allgather:" + a + ":16B"); err != nil {
		return "", fmt.Errorf("AllGather algorithm %q: accepted are %s", o.AllGather, strings.Join(AllGatherAlgorithms(), ", "))
	}
	return a, nil
}

// AllGatherWorkload is the workload spec of an AllGather of blocks of the given bytes
// over p tasks with algorithm alg (an AllGatherAlgorithms value; "" is DefaultAllGather),
// in the canonical form the stored runs carry, e.g. "allgather:linear:512B".
func AllGatherWorkload(alg string, bytes int64, p int) (string, error) {
	a, err := CollectiveOptions{AllGather: alg}.allGather()
	if err != nil {
		return "", err
	}
	if a == OpenMPIAllGather {
		switch {
		case bytes*int64(p) < 50000 && p&(p-1) == 0:
			a = "recursive_doubling"
		case bytes*int64(p) < 50000:
			a = "bruck"
		case p%2 == 0:
			a = "neighbor"
		default:
			a = "ring"
		}
	}
	s, err := workload.ParseSpec(fmt.Sprintf("allgather:%s:%dB", a, bytes))
	if err != nil {
		return "", err
	}
	return s.String(), nil
}
