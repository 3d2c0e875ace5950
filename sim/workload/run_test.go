package workload

import (
	"testing"
)

// fakeNetwork runs a workload on a network where every message of f flits (n packets
// of 4) arrives latency + f − 4 = latency + 4·(n−1) cycles after it is sent, with no contention: a stand-in for the
// engine that makes execution times easy to compute by hand.
func fakeNetwork(t *testing.T, r *Run, latency int64) int64 {
	t.Helper()
	for now := int64(0); !r.Done(); now++ {
		if now > 1e6 {
			t.Fatalf("not done after a million cycles: %s", r.Blocked())
		}
		r.Release(now, func(src, dst int32, flits int64, id int32) {
			at := now + latency + flits - 4
			r.Delivered(id, at) // reported ahead of its cycle, as the engine does
		})
	}
	return r.Stats().ExecutionCycles
}

func TestRunPingPong(t *testing.T) {
	b, _ := NewBuilder(2)
	b.Send(0, 1, 64) // one packet
	b.Recv(0, 1)
	b.Recv(1, 0)
	b.Compute(1, 100)
	b.Send(1, 0, 128) // two packets
	w, err := b.Build("ping-pong")
	if err != nil {
		t.Fatal(err)
	}
	cfg := RunConfig{FlitBytes: 16, PacketFlits: 4}
	r, _ := NewRun(w, []int32{0, 1}, cfg)
	// ping arrives at 10; pong leaves at 110 and arrives at 110 + 10 + 4.
	if got := fakeNetwork(t, r, 10); got != 124 {
		t.Errorf("ping-pong on two PEs: %d cycles, want 124", got)
	}
	s := r.Stats()
	if s.Messages != 2 || s.LocalMessages != 0 || s.Bytes != 192 || s.Packets != 3 || s.Flits != 12 {
		t.Errorf("stats %+v", s)
	}
	// Both tasks on one PE: the messages bypass the network and cost 7 cycles each.
	cfg.LocalCycles = 7
	r, _ = NewRun(w, []int32{0, 0}, cfg)
	if got := fakeNetwork(t, r, 10); got != 7+100+7 {
		t.Errorf("ping-pong on one PE: %d cycles, want 114", got)
	}
	if s := r.Stats(); s.LocalMessages != 2 || s.Packets != 0 {
		t.Errorf("local stats %+v", s)
	}
}

// A binomial broadcast over 8 tasks on the fake network: the root posts its three
// sends at cycle 0 (its NIC is not modelled here), so every level adds one latency.
func TestRunBroadcastOnFakeNetwork(t *testing.T) {
	w := build(t, Collective{Op: "bcast", Algorithm: "binomial", Bytes: 16}, 8)
	r, err := NewRun(w, []int32{0, 1, 2, 3, 4, 5, 6, 7}, RunConfig{PacketFlits: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := fakeNetwork(t, r, 10); got != 30 { // 0 → 1 → 3 → 7
		t.Errorf("binomial broadcast over 8: %d cycles, want 30", got)
	}
	if _, err := NewRun(w, []int32{0, 1}, RunConfig{PacketFlits: 4}); err == nil {
		t.Error("a mapping of 2 tasks accepted for 8")
	}
	if _, err := NewRun(w, make([]int32, 8), RunConfig{PacketFlits: 4, FlitBytes: -1}); err == nil {
		t.Error("a negative flit size accepted")
	}
}
