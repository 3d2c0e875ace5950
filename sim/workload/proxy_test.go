package workload

import (
	"testing"
)

func buildSpec(t testing.TB, spec string, tasks int) *Workload {
	t.Helper()
	s, err := ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.Build(tasks)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// Graph500: per level a gather and a broadcast (the allgather) and a reduce and a
// broadcast (the allreduce), P−1 messages each; task 0 is where the traffic
// concentrates, and the broadcast's binomial diagonals are there.
func TestGraph500Proxy(t *testing.T) {
	const p = 128
	w := buildSpec(t, "graph500:levels=3,searches=2", p)
	if want := 2 * 3 * 4 * (p - 1); w.Messages() != want {
		t.Errorf("%d messages, want %d", w.Messages(), want)
	}
	m, err := w.Matrix()
	if err != nil {
		t.Fatal(err)
	}
	var in0, out0, inMax int64
	for s := 1; s < p; s++ {
		_, b := m.At(s, 0)
		in0 += b
		_, b = m.At(0, s)
		out0 += b
	}
	for d := 1; d < p; d++ {
		var in int64
		for s := range p {
			_, b := m.At(s, d)
			in += b
		}
		inMax = max(inMax, in)
	}
	if in0 <= 10*inMax/p || out0 <= inMax {
		t.Errorf("task 0 receives %d bytes and sends %d; the busiest other task receives %d", in0, out0, inMax)
	}
	for _, e := range [][2]int{{0, 64}, {1, 3}, {1, 65}, {2, 6}, {2, 66}} {
		if n, _ := m.At(e[0], e[1]); n == 0 {
			t.Errorf("no message %d → %d of the binomial broadcast", e[0], e[1])
		}
	}
	if w2 := buildSpec(t, "graph500:levels=3,searches=2", p); !sameWorkload(w, w2) {
		t.Error("graph500 is not deterministic")
	}
}

// RandomAccess: near-uniform point-to-point, deterministic per seed.
func TestRandomAccessProxy(t *testing.T) {
	const p = 64
	w := buildSpec(t, "randomaccess:iterations=50,messages=4", p)
	if want := 50 * 4 * p; w.Messages() != want {
		t.Fatalf("%d messages, want %d", w.Messages(), want)
	}
	m, _ := w.Matrix()
	in := make([]int64, p)
	for s := range p {
		if n, _ := m.At(s, s); n != 0 {
			t.Errorf("task %d sends to itself", s)
		}
		for d := range p {
			n, _ := m.At(s, d)
			in[d] += n
		}
	}
	// 200 messages per task on average; a uniform draw stays within ±50 % (8 sigma).
	for d, n := range in {
		if n < 100 || n > 300 {
			t.Errorf("task %d receives %d messages, expected about 200", d, n)
		}
	}
	s := w.Summarize()
	if s.Pairs < p*(p-1)*9/10 {
		t.Errorf("only %d of %d pairs talk: not near-uniform", s.Pairs, p*(p-1))
	}
	if !sameWorkload(w, buildSpec(t, "randomaccess:iterations=50,messages=4", p)) || sameWorkload(w, buildSpec(t, "randomaccess:iterations=50,messages=4,seed=2", p)) {
		t.Error("randomaccess is not deterministic per seed")
	}
}

// NAMD: grid neighbours only, 6 or 26 of them; most pairs never talk.
func TestNAMDProxy(t *testing.T) {
	if g := grid3(128); g != [3]int{8, 4, 4} {
		t.Errorf("128 tasks on a %v grid", g)
	}
	if g := grid3(7); g != [3]int{7, 1, 1} {
		t.Errorf("7 tasks on a %v grid", g)
	}
	for _, c := range []struct {
		spec      string
		tasks     int
		neighbors int
	}{{"namd:iterations=2", 64, 6}, {"namd:iterations=2,stencil=26", 64, 26}, {"namd:iterations=2", 8, 3}, {"namd:iterations=2,stencil=26", 8, 7}} {
		w := buildSpec(t, c.spec, c.tasks)
		if want := 2 * c.tasks * c.neighbors; w.Messages() != want {
			t.Errorf("%s over %d: %d messages, want %d", c.spec, c.tasks, w.Messages(), want)
		}
		if s := w.Summarize(); s.Pairs != c.tasks*c.neighbors {
			t.Errorf("%s over %d: %d pairs talk, want %d", c.spec, c.tasks, s.Pairs, c.tasks*c.neighbors)
		}
	}
	// On the 4×4×4 grid, task 0 = (0,0,0) talks to (±1,0,0), (0,±1,0), (0,0,±1).
	w := buildSpec(t, "namd:iterations=1", 64)
	m, _ := w.Matrix()
	for _, d := range []int{1, 3, 4, 12, 16, 48} {
		if n, _ := m.At(0, d); n != 1 {
			t.Errorf("task 0 sends %d messages to its neighbour %d", n, d)
		}
	}
}

// PTRANS: the blocks that move are those whose owner differs from the owner of the
// transposed block, counted here block by block.
func TestPTRANSProxy(t *testing.T) {
	for _, n := range []int{16, 8, 12, 6} {
		p, q := grid2(n)
		nb := p / gcd(p, q) * q
		owner := func(i, j int) int { return i%p*q + j%q }
		want := map[[2]int]int64{}
		for i := range nb {
			for j := range nb {
				if s, d := owner(j, i), owner(i, j); s != d {
					want[[2]int{s, d}]++
				}
			}
		}
		w := buildSpec(t, "ptrans:iterations=1,block=1KiB", n)
		m, _ := w.Matrix()
		for s := range n {
			for d := range n {
				cnt, b := m.At(s, d)
				if blocks := want[[2]int{s, d}]; b != blocks*1024 || (cnt == 1) != (blocks > 0) {
					t.Errorf("ptrans over %d (%d×%d, %d blocks): %d → %d carries %d bytes in %d messages, want %d blocks", n, p, q, nb, s, d, b, cnt, blocks)
				}
			}
		}
	}
	// 4×4: task (i, j) exchanges with (j, i) only; the diagonal stays put.
	w := buildSpec(t, "ptrans:iterations=5", 16)
	if w.Messages() != 5*12 {
		t.Errorf("ptrans over 16: %d messages, want 60", w.Messages())
	}
}
