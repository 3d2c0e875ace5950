// Command leanvct is a sizing experiment for issue 15 (BENCHMARKS.md, eleventh part),
// not part of twintorus: a packet-level virtual cut-through simulator of torus:KxKxK
// under DOR with two dateline VCs, 4-flit packets and uniform traffic, written plainly
// for that one configuration and nothing else, to measure how many instructions a
// packet-hop takes when the engine has none of twintorus's generality. Its switch is
// close to the engine's default one (two-stage round-robin allocation, credits, a
// routing delay) but not the same bit for bit: credits return whole when the tail has
// left, and it counts only hops, deliveries and latency.
//
//	go run ./scripts/leanvct -k 8 -load 0.2 -warm 5000 -cycles 20000
package main

import (
	"flag"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"time"
)

const (
	ports   = 7 // X+ X- Y+ Y- Z+ Z- terminal
	vcs     = 2
	term    = 6
	L       = 4  // flits per packet
	bufF    = 64 // flits per VC
	slots   = bufF / L
	lat     = 1
	rd      = 1
	wheelSz = 64
)

type vcState struct {
	head, n  uint8
	outPort  uint8 // route of the head: output port and VC
	outVC    uint8
	q        [slots]int32
	readyAt  [slots]int32
	upstream int32 // global output VC whose credits this VC returns (-1: a NIC's)
}

type sim struct {
	k, n      int
	now       int32
	vc        []vcState // [s][port][vc]
	credits   []int32   // [s][outport][vc]: free flits downstream
	inBusy    []int32   // [s][port]
	outBusy   []int32   // [s][port]
	inRR      []uint8   // [s][port]
	outRR     []uint8   // [s][port]
	ready     []uint16  // [s]: bit port*2+vc: the head may leave
	active    []int32   // the switches to visit: those with a ready head
	inActive  []bool
	coord     [][3]uint8
	neighbour []int32 // [s][port]: the switch beyond output port
	wheel     [wheelSz][]uint32
	// packets
	dst  []int32
	gen  []int32
	free []int32
	// sources
	rng      *rand.Rand
	logq     float64   // log(1-p) for the per-cycle generation probability p
	srcQ     [][]int32 // per PE: its waiting messages, (destination, generation cycle) pairs
	srcHead  []int32
	nicBusy  []int32
	nicCred  []int32 // per PE: free flits of its injection VC 0
	nicList  []int32
	nicOn    []bool
	genWheel [4096][]int32
	nextGen  []int32 // per PE: its next generation cycle
	// counters
	flitHops, delivered, latSum int64
}

const (
	evReady  = 1 << 30
	evCredit = 2 << 30
	evNIC    = 3 << 30
	evMask   = 1<<30 - 1
)

func newSim(k int, load float64, seed uint64) *sim {
	n := k * k * k
	s := &sim{k: k, n: n}
	s.vc = make([]vcState, n*ports*vcs)
	s.credits = make([]int32, n*ports*vcs)
	s.inBusy = make([]int32, n*ports)
	s.outBusy = make([]int32, n*ports)
	s.inRR = make([]uint8, n*ports)
	s.outRR = make([]uint8, n*ports)
	s.ready = make([]uint16, n)
	s.inActive = make([]bool, n)
	s.coord = make([][3]uint8, n)
	s.neighbour = make([]int32, n*ports)
	for i := range s.credits {
		s.credits[i] = bufF
	}
	for sw := 0; sw < n; sw++ {
		c := [3]int{sw % k, sw / k % k, sw / (k * k)}
		s.coord[sw] = [3]uint8{uint8(c[0]), uint8(c[1]), uint8(c[2])}
		for d := 0; d < 3; d++ {
			for dir := 0; dir < 2; dir++ {
				cc := c
				if dir == 0 {
					cc[d] = (cc[d] + 1) % k
				} else {
					cc[d] = (cc[d] + k - 1) % k
				}
				s.neighbour[sw*ports+2*d+dir] = int32(cc[0] + k*cc[1] + k*k*cc[2])
			}
		}
		for p := 0; p < ports; p++ {
			for v := 0; v < vcs; v++ {
				i := (sw*ports+p)*vcs + v
				if p == term {
					s.vc[i].upstream = -1
				} else {
					// input port p of sw is fed by output p^1 of the neighbour beyond port p
					up := s.neighbour[sw*ports+p]
					s.vc[i].upstream = int32((int(up)*ports+(p^1))*vcs + v)
				}
			}
		}
	}
	s.rng = rand.New(rand.NewPCG(seed, 1))
	s.logq = math.Log1p(-load / L)
	s.srcQ = make([][]int32, n)
	s.srcHead = make([]int32, n)
	s.nicBusy = make([]int32, n)
	s.nicCred = make([]int32, n)
	s.nicOn = make([]bool, n)
	s.nextGen = make([]int32, n)
	for t := range s.nicCred {
		s.nicCred[t] = bufF
		s.schedGen(t, 0)
	}
	return s
}

func (s *sim) gap() int32 {
	u := s.rng.Float64()
	return int32(math.Log1p(-u)/s.logq) + 1
}

func (s *sim) schedGen(t int, from int32) {
	s.nextGen[t] = from + s.gap()
	s.calendar(t)
}

// calendar files PE t under its next generation cycle, or under the wheel's last
// bucket when that cycle lies further ahead (it is filed again when that comes round).
func (s *sim) calendar(t int) {
	at := min(s.nextGen[t], s.now+int32(len(s.genWheel))-1)
	b := at & int32(len(s.genWheel)-1)
	s.genWheel[b] = append(s.genWheel[b], int32(t))
}

func (s *sim) schedule(at int32, code uint32) {
	b := at & (wheelSz - 1)
	s.wheel[b] = append(s.wheel[b], code)
}

// route sets the output of the head of VC i (at switch sw, arrived by port p, VC v).
func (s *sim) route(sw, p, v int, pkt int32) (uint8, uint8) {
	d := s.dst[pkt]
	if int(d) == sw {
		return term, 0
	}
	a, b := s.coord[sw], s.coord[d]
	k := uint8(s.k)
	for dim := 0; dim < 3; dim++ {
		if a[dim] == b[dim] {
			continue
		}
		fwd := (b[dim] + k - a[dim]) % k
		dir := uint8(0)
		if 2*fwd > k {
			dir = 1
		}
		out := uint8(2*dim) + dir
		// dateline: VC 1 once the wrap-around link of this ring has been crossed
		ovc := uint8(0)
		if p != term && p>>1 == dim && v == 1 {
			ovc = 1
		}
		if (dir == 0 && a[dim] == k-1) || (dir == 1 && a[dim] == 0) {
			ovc = 1
		}
		return out, ovc
	}
	return term, 0
}

func (s *sim) markReady(i int) {
	sw := i / (ports * vcs)
	s.ready[sw] |= 1 << (i % (ports * vcs))
	if !s.inActive[sw] {
		s.inActive[sw] = true
		s.active = append(s.active, int32(sw))
	}
}

// enqueue puts packet pkt into VC i, ready at cycle at.
func (s *sim) enqueue(i int, pkt int32, at int32) {
	vc := &s.vc[i]
	slot := (vc.head + vc.n) % slots
	vc.q[slot], vc.readyAt[slot] = pkt, at
	vc.n++
	if vc.n == 1 {
		sw, pv := i/(ports*vcs), i%(ports*vcs)
		vc.outPort, vc.outVC = s.route(sw, pv/vcs, pv%vcs, pkt)
		s.schedule(at, evReady|uint32(i))
	}
}

func (s *sim) step() {
	now := s.now
	// events
	b := &s.wheel[now&(wheelSz-1)]
	for _, code := range *b {
		switch code &^ evMask {
		case evReady:
			s.markReady(int(code & evMask))
		case evCredit:
			s.credits[code&evMask] += L
		case evNIC:
			s.nicCred[code&evMask] += L
		}
	}
	*b = (*b)[:0]
	// generation
	g := &s.genWheel[now&int32(len(s.genWheel)-1)]
	for _, t := range *g {
		if s.nextGen[t] != now {
			s.calendar(int(t))
			continue
		}
		d := int32(s.rng.IntN(s.n - 1))
		if d >= t {
			d++
		}
		s.srcQ[t] = append(s.srcQ[t], d, now)
		if !s.nicOn[t] {
			s.nicOn[t] = true
			s.nicList = append(s.nicList, t)
		}
		s.schedGen(int(t), now)
	}
	*g = (*g)[:0]
	// injection
	for j := 0; j < len(s.nicList); {
		t := s.nicList[j]
		if s.nicBusy[t] <= now && s.nicCred[t] >= L {
			h := s.srcHead[t]
			var pkt int32
			if nf := len(s.free); nf > 0 {
				pkt = s.free[nf-1]
				s.free = s.free[:nf-1]
			} else {
				pkt = int32(len(s.dst))
				s.dst, s.gen = append(s.dst, 0), append(s.gen, 0)
			}
			s.dst[pkt], s.gen[pkt] = s.srcQ[t][h], s.srcQ[t][h+1]
			s.nicCred[t] -= L
			s.nicBusy[t] = now + L
			s.enqueue((int(t)*ports+term)*vcs, pkt, now+lat+rd)
			if s.srcHead[t] = h + 2; int(s.srcHead[t]) == len(s.srcQ[t]) {
				s.srcQ[t], s.srcHead[t] = s.srcQ[t][:0], 0
				s.nicOn[t] = false
				s.nicList = removeAt(s.nicList, j)
				continue
			}
		}
		j++
	}
	// allocation
	for j := 0; j < len(s.active); {
		sw := int(s.active[j])
		s.allocate(sw)
		if s.ready[sw] == 0 {
			s.inActive[sw] = false
			s.active = removeAt(s.active, j)
			continue
		}
		j++
	}
	s.now++
}

// removeAt removes list[j], moving the last entry into its place.
func removeAt(list []int32, j int) []int32 {
	last := len(list) - 1
	list[j] = list[last]
	return list[:last]
}

// allocate visits switch sw: each idle input port requests for one of its ready heads
// (round-robin over its VCs) whose output is idle and has room downstream, then each
// output grants one request (round-robin over its inputs). A switch stays on the list,
// and is visited again next cycle, while it has a ready head: heads blocked by a busy
// port or for credits are polled. (Taking them off the list until their port frees or
// their credits return, tried, gave the same results with 4 % more instructions.)
func (s *sim) allocate(sw int) {
	now := s.now
	var req [ports]uint8    // inputs requesting each output, as a mask
	var choice [ports]uint8 // the VC each input chose
	pb := sw * ports
	rmask := s.ready[sw]
	for rmask != 0 {
		p := bits.TrailingZeros16(rmask) / vcs
		m := (rmask >> (p * vcs)) & (1<<vcs - 1)
		rmask &^= (1<<vcs - 1) << (p * vcs)
		if s.inBusy[pb+p] > now {
			continue
		}
		// round-robin over the port's ready VCs
		for t := 0; t < vcs; t++ {
			v := (int(s.inRR[pb+p]) + t) % vcs
			if m&(1<<v) == 0 {
				continue
			}
			vc := &s.vc[(pb+p)*vcs+v]
			o := int(vc.outPort)
			if s.outBusy[pb+o] > now {
				continue
			}
			if o != term && s.credits[(pb+o)*vcs+int(vc.outVC)] < L {
				continue
			}
			req[o] |= 1 << p
			choice[p] = uint8(v)
			break
		}
	}
	for o := 0; o < ports; o++ {
		r := req[o]
		if r == 0 {
			continue
		}
		// round-robin over the requesting inputs from outRR
		rr := s.outRR[pb+o]
		rot := r>>rr | r<<(ports-rr)
		p := (int(rr) + bits.TrailingZeros8(rot)) % ports
		s.start(sw, p, int(choice[p]), o)
	}
}

// start sends the head of VC v of input port p through output o: both ports are busy
// for the packet's L cycles, it reaches the next switch's VC (or its NIC) after the
// link, and its credits go back upstream once its tail has left.
func (s *sim) start(sw, p, v, o int) {
	now := s.now
	pb := sw * ports
	i := (pb+p)*vcs + v
	vc := &s.vc[i]
	pkt := vc.q[vc.head]
	s.inBusy[pb+p], s.outBusy[pb+o] = now+L, now+L
	s.inRR[pb+p] = uint8((v + 1) % vcs)
	s.outRR[pb+o] = uint8((p + 1) % ports)
	if o == term {
		s.delivered++
		s.latSum += int64(now + L - 1 + lat - s.gen[pkt])
		s.free = append(s.free, pkt)
	} else {
		ovc := int(vc.outVC)
		s.credits[(pb+o)*vcs+ovc] -= L
		nb := int(s.neighbour[pb+o])
		s.enqueue((nb*ports+(o^1))*vcs+ovc, pkt, now+lat+rd)
		s.flitHops += L
	}
	// credits back upstream once the tail has left
	if up := vc.upstream; up >= 0 {
		s.schedule(now+L, evCredit|uint32(up))
	} else {
		s.schedule(now+L, evNIC|uint32(sw))
	}
	vc.head = (vc.head + 1) % slots
	vc.n--
	if vc.n == 0 {
		s.ready[sw] &^= 1 << (p*vcs + v)
		return
	}
	next := vc.q[vc.head]
	vc.outPort, vc.outVC = s.route(sw, p, v, next)
	if at := vc.readyAt[vc.head]; at > now {
		s.ready[sw] &^= 1 << (p*vcs + v)
		s.schedule(at, evReady|uint32(i))
	}
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "leanvct: "+format+"\n", a...)
	os.Exit(2)
}

func main() {
	k := flag.Int("k", 8, "radix")
	load := flag.Float64("load", 0.2, "flits/cycle/PE")
	warm := flag.Int("warm", 5000, "cycles before the count")
	cycles := flag.Int("cycles", 20000, "counted cycles")
	flag.Parse()
	switch {
	case *k < 3 || *k > 64:
		// about 2 kB of state per switch: 0.55 GB at k = 64
		fail("-k %d: accepted is 3 to 64", *k)
	case !(*load > 0 && *load <= 1):
		fail("-load %g: accepted is a load in (0, 1] flits/cycle/PE", *load)
	case *warm < 0 || *cycles < 0 || *warm+*cycles > math.MaxInt32/2:
		fail("-warm %d -cycles %d: accepted are counts from 0 with a sum below 2^30", *warm, *cycles)
	}
	r := run(*k, *load, *warm, *cycles)
	fmt.Printf("cycles %d..%d flit-hops %d packet-hops %d delivered %d mean-latency %.2f accepted %.4f flits/cycle/PE: %.1f M flit-hops/s\n",
		*warm, *warm+*cycles, r.flitHops, r.flitHops/L, r.delivered, r.meanLatency, r.accepted, float64(r.flitHops)/r.seconds/1e6)
}

// result is what a run counted after its warm-up.
type result struct {
	flitHops, delivered   int64
	meanLatency, accepted float64
	seconds               float64
}

// run simulates torus:KxKxK at load for warm cycles, then counts the next cycles.
func run(k int, load float64, warm, cycles int) result {
	s := newSim(k, load, 1)
	for s.now < int32(warm) {
		s.step()
	}
	h0, d0, l0 := s.flitHops, s.delivered, s.latSum
	t0 := time.Now()
	for s.now < int32(warm+cycles) {
		s.step()
	}
	r := result{flitHops: s.flitHops - h0, delivered: s.delivered - d0, seconds: time.Since(t0).Seconds()}
	r.meanLatency = float64(s.latSum-l0) / float64(r.delivered)
	r.accepted = float64(r.delivered*L) / float64(cycles) / float64(s.n)
	return r
}
