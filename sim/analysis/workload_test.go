package analysis_test

import (
	"context"
	"strings"
	"testing"

	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
	"github.com/twintorus/twintorus/sim/workload"
)

// loadOf builds the collective spec over every PE of net, places task t on PE t and
// counts its load under DOR (DORT on twin tori) with + ties and one-flit packets.
func loadOf(t *testing.T, net *topology.Network, spec string, tasksPerPE int) *analysis.WorkloadLoad {
	t.Helper()
	s, err := workload.ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.Build(net.Terminals() * tasksPerPE)
	if err != nil {
		t.Fatal(err)
	}
	place, err := workload.Mapping{Kind: workload.Linear, TasksPerPE: tasksPerPE}.Place(w.Tasks(), net.Terminals(), 1)
	if err != nil {
		t.Fatal(err)
	}
	l, err := analysis.LoadOfWorkload(context.Background(), routing.NewDOR(net, routing.TiePlus), w, place, workload.RunConfig{PacketFlits: 1})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// On a ring of 8 PEs, counted by hand. The ring allgather of one-flit blocks sends every
// block one hop, 7 steps: every channel and every NIC carries 7 flits, no step is the
// network's. Recursive doubling sends 1, 2 and 4 flits to r XOR 1, 2, 4: at distance 1
// half the ranks go each way (1 flit per channel); at distance 2 the + channel after
// the second rank of each pair of senders carries 2 messages of 2 flits; at distance 4
// (k/2, + ties) all 8 ranks go + and every + channel carries 4 messages of 4 flits. So
// the steps' busiest channels carry 1, 4 and 16 flits (the NICs 1, 2 and 4) and the
// busiest channel over the three steps 0 + 4 + 16 = 20.
func TestLoadOfWorkloadRing(t *testing.T) {
	net := topology.MustNew("torus:8")
	ring := loadOf(t, net, "allgather:ring:16B", 1)
	want := analysis.WorkloadLoad{Messages: 56, Flits: 56, FlitHops: 56, NICBound: 7, ChannelBound: 7, MaxExternal: 7,
		Channels: 16, Steps: 7, StepBound: 7, NetworkSteps: 0}
	if *ring != want {
		t.Errorf("ring allgather: %+v, want %+v", *ring, want)
	}
	if ring.NetworkLimited() || ring.Bound() != 7 {
		t.Errorf("ring allgather: network limited %v, bound %d; want false, 7", ring.NetworkLimited(), ring.Bound())
	}
	rd := loadOf(t, net, "allgather:recursive_doubling:16B", 1)
	// Flit-hops: 8 ranks × (1 flit × 1 hop + 2 × 2 + 4 × 4).
	want = analysis.WorkloadLoad{Messages: 24, Flits: 56, FlitHops: 8 * (1 + 4 + 16), NICBound: 7, ChannelBound: 20, MaxExternal: 20,
		Channels: 16, Steps: 3, StepBound: 21, NetworkSteps: 2}
	if *rd != want {
		t.Errorf("recursive doubling: %+v, want %+v", *rd, want)
	}
	if !rd.NetworkLimited() || rd.Bound() != 20 {
		t.Errorf("recursive doubling: network limited %v, bound %d; want true, 20", rd.NetworkLimited(), rd.Bound())
	}
	if u := rd.MeanUtilisation(21); u != float64(8*21)/(16*21) {
		t.Errorf("mean utilisation %v", u)
	}
}

// Messages between two tasks of one PE bypass the network: with two tasks per PE the
// ring allgather of 16 tasks on 8 PEs crosses the network only from odd tasks to the
// next PE, 8 of its 16 messages per step.
func TestLoadOfWorkloadLocal(t *testing.T) {
	l := loadOf(t, topology.MustNew("torus:8"), "allgather:ring:16B", 2)
	if l.Messages != 8*15 || l.Flits != 8*15 || l.FlitHops != 8*15 || l.NICBound != 15 || l.ChannelBound != 15 {
		t.Errorf("%+v: want 120 messages, flits and flit-hops, NIC and channel bounds 15", *l)
	}
}

// On a twin torus the load counts internal links: the ring allgather of 4x2/cbest's 16
// PEs sends rank 2j to 2j+1, its node's other PE, over the internal link in every step.
// And the flits of a message are cut as the engine cuts them: 512-byte blocks in
// 4-flit packets of 16 bytes are 32 flits.
func TestLoadOfWorkloadTwin(t *testing.T) {
	net := topology.MustNew("twin:4x2/cbest")
	l := loadOf(t, net, "allgather:ring:16B", 1)
	if l.InternalFlitHops == 0 || l.MaxInternal < 15 {
		t.Errorf("ring allgather on %s: internal flit-hops %d, busiest internal channel %d flits; want every step on the internal link (15+)", net, l.InternalFlitHops, l.MaxInternal)
	}
	s, _ := workload.ParseSpec("allgather:ring:512B")
	w, err := s.Build(16)
	if err != nil {
		t.Fatal(err)
	}
	place, _ := workload.Mapping{Kind: workload.Linear}.Place(16, 16, 1)
	l2, err := analysis.LoadOfWorkload(context.Background(), routing.NewDOR(net, routing.TiePlus), w, place, workload.RunConfig{PacketFlits: 4})
	if err != nil {
		t.Fatal(err)
	}
	if l2.Flits != 32*l.Flits || l2.FlitHops != 32*l.FlitHops || l2.ChannelBound != 32*l.ChannelBound {
		t.Errorf("512 B blocks: %+v; want 32 times the one-flit blocks' %+v", *l2, *l)
	}
}

// The bound is a bound: no simulated run of the workload finishes sooner, on a torus
// and on a twin torus, whether the network or the NICs limit it.
func TestLoadOfWorkloadBoundsSimulation(t *testing.T) {
	for _, c := range []struct{ topo, routing, workload string }{
		{"torus:4x4", "dor", "allgather:recursive_doubling:512B"},
		{"torus:4x4", "dor", "allgather:linear:64B"},
		{"twin:4x2x2/cbest", "dort", "allgather:neighbor:512B"},
		{"twin:4x2x2/cbest", "dort", "alltoall:bruck:256B"},
	} {
		net := topology.MustNew(c.topo)
		p := experiment.NewPoint(c.topo, 0)
		p.Routing, p.Deadlock, p.Workload = c.routing, "vc", c.workload
		res, err := p.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		s, _ := workload.ParseSpec(c.workload)
		w, err := s.Build(net.Terminals())
		if err != nil {
			t.Fatal(err)
		}
		place, _ := workload.Mapping{Kind: workload.Linear}.Place(w.Tasks(), net.Terminals(), 1)
		l, err := analysis.LoadOfWorkload(context.Background(), routing.NewDOR(net, routing.TiePlus), w, place, workload.RunConfig{PacketFlits: p.PacketFlits})
		if err != nil {
			t.Fatal(err)
		}
		got := res.Closed.ExecutionCycles
		if got < l.Bound() {
			t.Errorf("%s on %s: simulated %d cycles, under the bound %d (NIC %d, channel %d)", c.workload, c.topo, got, l.Bound(), l.NICBound, l.ChannelBound)
		}
		if l.Bound() < got/20 {
			t.Errorf("%s on %s: bound %d is not within 20 times the simulated %d cycles", c.workload, c.topo, l.Bound(), got)
		}
	}
}

func TestLoadOfWorkloadErrors(t *testing.T) {
	net := topology.MustNew("torus:4")
	s, _ := workload.ParseSpec("allgather:ring:16B")
	w, _ := s.Build(4)
	rt := routing.NewDOR(net, routing.TiePlus)
	for _, c := range []struct {
		place []int32
		want  string
	}{{[]int32{0, 1, 2}, "3 placements for 4 tasks"}, {[]int32{0, 1, 2, 4}, "task 3 on PE 4"}} {
		_, err := analysis.LoadOfWorkload(context.Background(), rt, w, c.place, workload.RunConfig{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("placement %v: error %v, want %q", c.place, err, c.want)
		}
	}
}
