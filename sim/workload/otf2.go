package workload

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// OTF2EventsMagic is the first line of the event stream that the OTF2 converter
// (internal/otf2's otf2events.py, which reads an archive through Debian's python3-otf2)
// writes and ReadOTF2Events reads.
const OTF2EventsMagic = "twintorus-otf2-events 1"

// ImportOptions say how an OTF2 archive's events become a workload.
type ImportOptions struct {
	// ComputeScale is the simulated cycles per nanosecond of measured computation
	// (time a rank spent outside MPI between two of its MPI calls); 0 drops
	// computation.
	ComputeScale float64
	// Collectives is "keep" (each collective replayed with one of Open MPI's coll/base
	// algorithms, CollectiveAlgorithms) or "messages" (each as the point-to-point
	// messages of its definition, Open MPI's coll/basic linear algorithms).
	Collectives string
	// Algorithms overrides CollectiveAlgorithms per OTF2 operation (keep only).
	Algorithms map[string]string
}

// CollectiveAlgorithms are the algorithms that replay an archive's collectives under
// "keep", by OTF2's operation name: the ones of Open MPI's coll/base that take any
// number of ranks. A barrier moves no data: it is replayed as a recursive-doubling
// allreduce of zero bytes, the exchange of Open MPI's recursive-doubling barrier. The
// v-variants (gatherv, scatterv, allgatherv, alltoallv) are replayed as their regular
// operation with the mean block of the call.
var CollectiveAlgorithms = map[string]string{
	"barrier":    "allreduce:recursive_doubling",
	"bcast":      "bcast:binomial",
	"reduce":     "reduce:binomial",
	"allreduce":  "allreduce:recursive_doubling",
	"gather":     "gather:binomial",
	"gatherv":    "gather:binomial",
	"scatter":    "scatter:binomial",
	"scatterv":   "scatter:binomial",
	"allgather":  "allgather:ring",
	"allgatherv": "allgather:ring",
	"alltoall":   "alltoall:pairwise",
	"alltoallv":  "alltoall:pairwise",
}

// ImportReport is what an import read, turned into messages, and left out.
type ImportReport struct {
	Ranks              int              `json:"ranks"`
	Messages           int64            `json:"p2p_messages"`        // matched point-to-point messages
	Bytes              int64            `json:"p2p_bytes"`           // their bytes (the sender's size)
	Collectives        map[string]int64 `json:"collectives"`         // calls replayed, by OTF2 operation (one per communicator call)
	CollectiveMessages int64            `json:"collective_messages"` // messages the replayed collectives send
	CollectiveBytes    int64            `json:"collective_bytes"`
	ComputeCycles      int64            `json:"compute_cycles"` // over all ranks
	UnmatchedSends     int64            `json:"unmatched_sends"`
	UnmatchedRecvs     int64            `json:"unmatched_recvs"`
	SizeMismatches     int64            `json:"size_mismatches"` // receives whose size differs from their send's
	Unsupported        map[string]int64 `json:"unsupported"`     // events or calls not replayed, by name
	Ignored            map[string]int64 `json:"ignored"`         // events read that carry no traffic, by name
}

// otf2Op is one operation of a rank as read: a send, a receive or a collective call,
// with the computation before it.
type otf2Op struct {
	kind    OpKind // Send, Recv, or 0 for a collective
	peer    int32  // world rank
	comm    int32  // index into the communicators
	tag     int64
	bytes   int64
	compute int64 // cycles before it
	coll    int32 // collective: index into collective calls
}

type otf2Comm struct {
	members []int32
}

// otf2Call is a rank's collective call as read.
type otf2Call struct {
	op             string
	root           int64
	sent, received int64
}

// ReadOTF2Events reads the event stream of an OTF2 archive (OTF2EventsMagic) and
// builds its workload: each rank a task, point-to-point messages matched as MPI
// matches them (per communicator, source and tag, in order), computation between MPI
// calls scaled by opt.ComputeScale, and collectives replayed as opt.Collectives says.
// name names the stream in errors and the workload. Events it cannot replay are
// counted in the report by name, never dropped silently.
func ReadOTF2Events(r io.Reader, name string, opt ImportOptions) (*Workload, ImportReport, error) {
	w, rep, err := readOTF2Events(r, name, opt)
	if err != nil {
		return nil, rep, fmt.Errorf("OTF2 events %s: %w", name, err)
	}
	return w, rep, nil
}

func readOTF2Events(r io.Reader, name string, opt ImportOptions) (*Workload, ImportReport, error) {
	rep := ImportReport{Collectives: map[string]int64{}, Unsupported: map[string]int64{}, Ignored: map[string]int64{}}
	if opt.Collectives == "" {
		opt.Collectives = "keep"
	}
	if opt.Collectives != "keep" && opt.Collectives != "messages" {
		return nil, rep, fmt.Errorf("collectives %q: accepted are keep and messages", opt.Collectives)
	}
	if math.IsNaN(opt.ComputeScale) || opt.ComputeScale < 0 || opt.ComputeScale > 1e6 {
		return nil, rep, fmt.Errorf("compute scale %v: accepted are 0 (no computation) to 1e6 cycles per nanosecond", opt.ComputeScale)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<24)
	line := 0
	ranks := 0
	var clock float64
	comms := map[int64]int32{}
	var commList []otf2Comm
	var progs [][]otf2Op
	var calls []otf2Call
	type clockState struct {
		depth   int
		last    int64 // when the rank last left MPI (or its last event outside a region); -1 before its first
		pending float64
	}
	var st []clockState
	var ops int64
	ended := false
	fail := func(format string, a ...any) error {
		return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, a...))
	}
	num := func(s, what string, lo, hi int64) (int64, error) {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < lo || v > hi {
			return 0, fail("the %s %q is not a whole number from %d to %d", what, clip(s), lo, hi)
		}
		return v, nil
	}
	// computeBefore ends rank k's computation at time t (ticks) and returns it in cycles.
	computeBefore := func(k int, t int64) int64 {
		s := &st[k]
		if s.depth == 0 && s.last >= 0 && t > s.last {
			s.pending += float64(t-s.last) * 1e9 / clock
		}
		if s.depth == 0 {
			s.last = t
		}
		c := int64(math.Round(s.pending * opt.ComputeScale))
		if c > MaxCompute {
			c = MaxCompute
		}
		s.pending = 0
		return c
	}
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if line == 1 {
			if strings.TrimSpace(sc.Text()) != OTF2EventsMagic {
				return nil, rep, fail("%q is not an OTF2 event stream: the first line must be %q", clip(sc.Text()), OTF2EventsMagic)
			}
			continue
		}
		if len(f) == 0 {
			continue
		}
		if ended {
			return nil, rep, fail("%q after 'end'", clip(sc.Text()))
		}
		switch f[0] {
		case "ranks":
			if ranks != 0 || len(f) != 2 {
				return nil, rep, fail("write 'ranks N' once")
			}
			n, err := num(f[1], "number of ranks", 1, MaxTasks)
			if err != nil {
				return nil, rep, err
			}
			ranks = int(n)
			progs = make([][]otf2Op, ranks)
			st = make([]clockState, ranks)
			for i := range st {
				st[i].last = -1
			}
			continue
		case "clock":
			if clock != 0 || len(f) != 2 {
				return nil, rep, fail("write 'clock TICKS_PER_SECOND' once")
			}
			v, err := num(f[1], "clock rate", 1, 1<<62)
			if err != nil {
				return nil, rep, err
			}
			clock = float64(v)
			continue
		case "comm":
			if ranks == 0 {
				return nil, rep, fail("'comm' before 'ranks N'")
			}
			if len(f) < 3 {
				return nil, rep, fail("write 'comm ID SIZE MEMBERS...'")
			}
			id, err := num(f[1], "communicator id", 0, math.MaxUint32)
			if err != nil {
				return nil, rep, err
			}
			size, err := num(f[2], "communicator size", 1, int64(ranks))
			if err != nil {
				return nil, rep, err
			}
			if int64(len(f)-3) != size {
				return nil, rep, fail("communicator %d has size %d and %d members", id, size, len(f)-3)
			}
			if _, dup := comms[id]; dup {
				return nil, rep, fail("communicator %d defined twice", id)
			}
			c := otf2Comm{members: make([]int32, size)}
			seen := map[int64]bool{}
			for i := range c.members {
				m, err := num(f[3+i], "member rank", -1, int64(ranks)-1)
				if err != nil {
					return nil, rep, err
				}
				if m >= 0 && seen[m] {
					return nil, rep, fail("communicator %d lists rank %d twice", id, m)
				}
				seen[m] = true
				c.members[i] = int32(m)
			}
			comms[id] = int32(len(commList))
			commList = append(commList, c)
			continue
		case "ignored", "unknown":
			if len(f) != 3 {
				return nil, rep, fail("write '%s NAME COUNT'", f[0])
			}
			n, err := num(f[2], "count", 0, math.MaxInt64)
			if err != nil {
				return nil, rep, err
			}
			m := rep.Ignored
			if f[0] == "unknown" {
				m = rep.Unsupported
			}
			m[f[1]] += n
			continue
		case "end":
			if len(f) != 1 {
				return nil, rep, fail("'end' takes nothing")
			}
			ended = true
			continue
		}
		// An event: R T KIND ...
		if ranks == 0 || clock == 0 {
			return nil, rep, fail("an event before 'ranks N' and 'clock RATE'")
		}
		if len(f) < 3 {
			return nil, rep, fail("%q: an event is 'RANK TIME KIND ...'", clip(sc.Text()))
		}
		rk, err := num(f[0], "rank", 0, int64(ranks)-1)
		if err != nil {
			return nil, rep, err
		}
		t, err := num(f[1], "time", 0, math.MaxInt64)
		if err != nil {
			return nil, rep, err
		}
		k := int(rk)
		want := map[string]int{"enter": 3, "leave": 3, "send": 7, "recv": 7, "coll": 8}[f[2]]
		if want == 0 {
			return nil, rep, fail("unknown event %q: accepted are enter, leave, send, recv, coll", clip(f[2]))
		}
		if len(f) != want {
			return nil, rep, fail("%s takes %d fields after the time, got %d", f[2], want-3, len(f)-3)
		}
		s := &st[k]
		switch f[2] {
		case "enter":
			if s.depth == 0 && s.last >= 0 && t > s.last {
				s.pending += float64(t-s.last) * 1e9 / clock
			}
			s.depth++
			continue
		case "leave":
			if s.depth == 0 {
				return nil, rep, fail("rank %d leaves a region it did not enter", k)
			}
			s.depth--
			if s.depth == 0 {
				s.last = t
			}
			continue
		}
		var commID int64
		if commID, err = num(f[4], "communicator", -1, math.MaxUint32); err != nil {
			return nil, rep, err
		}
		op := otf2Op{}
		if f[2] == "send" || f[2] == "recv" {
			if commID < 0 {
				rep.Unsupported[f[2]+" on a communicator not in the archive"]++
				continue
			}
			ci, ok := comms[commID]
			if !ok {
				return nil, rep, fail("communicator %d is not defined", commID)
			}
			peer, err := num(f[3], "peer", 0, math.MaxUint32)
			if err != nil {
				return nil, rep, err
			}
			members := commList[ci].members
			if peer >= int64(len(members)) || members[peer] < 0 {
				return nil, rep, fail("rank %d %ss with rank %d of communicator %d, which has %d ranks", k, f[2], peer, commID, len(members))
			}
			if !slices.Contains(members, int32(k)) {
				return nil, rep, fail("rank %d uses communicator %d, which it is not a member of", k, commID)
			}
			tag, err := num(f[5], "tag", 0, math.MaxUint32)
			if err != nil {
				return nil, rep, err
			}
			b, err := num(f[6], "size", 0, MaxMessageBytes)
			if err != nil {
				return nil, rep, err
			}
			op = otf2Op{kind: Send, peer: members[peer], comm: ci, tag: tag, bytes: b}
			if f[2] == "recv" {
				op.kind = Recv
			}
		} else { // coll OP COMM ROOT SENT RECEIVED
			if commID < 0 {
				rep.Unsupported["collective "+f[3]+" on a communicator not in the archive"]++
				continue
			}
			ci, ok := comms[commID]
			if !ok {
				return nil, rep, fail("communicator %d is not defined", commID)
			}
			if !slices.Contains(commList[ci].members, int32(k)) {
				return nil, rep, fail("rank %d uses communicator %d, which it is not a member of", k, commID)
			}
			root, err := num(f[5], "root", -1, math.MaxUint32)
			if err != nil {
				return nil, rep, err
			}
			sent, err := num(f[6], "bytes sent", 0, math.MaxInt64/2)
			if err != nil {
				return nil, rep, err
			}
			recvd, err := num(f[7], "bytes received", 0, math.MaxInt64/2)
			if err != nil {
				return nil, rep, err
			}
			op = otf2Op{comm: ci, coll: int32(len(calls))}
			calls = append(calls, otf2Call{op: clip(f[3]), root: root, sent: sent, received: recvd})
		}
		if ops++; ops > MaxOps {
			return nil, rep, fail("more than %d operations: accepted are at most %d over all ranks", MaxOps, MaxOps)
		}
		op.compute = computeBefore(k, t)
		progs[k] = append(progs[k], op)
	}
	if err := sc.Err(); err != nil {
		return nil, rep, fmt.Errorf("after line %d: %w", line, err)
	}
	if line == 0 {
		return nil, rep, fmt.Errorf("empty: the first line must be %q", OTF2EventsMagic)
	}
	if !ended {
		return nil, rep, fmt.Errorf("ends after line %d without 'end': the stream is cut short", line)
	}
	if ranks == 0 {
		return nil, rep, fmt.Errorf("no 'ranks N' line")
	}
	rep.Ranks = ranks
	w, err := buildImport(name, opt, ranks, progs, commList, calls, &rep)
	return w, rep, err
}

// matchKey is what MPI matches a receive to a send by: the communicator, the source
// and destination, and the tag.
type matchKey struct {
	comm          int32
	src, dst, tag int64
}

// buildImport matches the messages, expands the collectives and builds the workload.
func buildImport(name string, opt ImportOptions, ranks int, progs [][]otf2Op, comms []otf2Comm, calls []otf2Call, rep *ImportReport) (*Workload, error) {
	// Point-to-point: the k-th receive with a key takes the k-th send with that key
	// (MPI's non-overtaking rule; wildcard receives are recorded with the source and
	// tag they matched).
	queue := map[matchKey][]int64{} // send sizes in order
	for src, p := range progs {
		for _, op := range p {
			if op.kind == Send {
				k := matchKey{op.comm, int64(src), int64(op.peer), op.tag}
				queue[k] = append(queue[k], op.bytes)
			}
		}
	}
	taken := map[matchKey]int{}
	matchedRecv := make([][]bool, ranks)
	for dst, p := range progs {
		matchedRecv[dst] = make([]bool, len(p))
		for i, op := range p {
			if op.kind != Recv {
				continue
			}
			k := matchKey{op.comm, int64(op.peer), int64(dst), op.tag}
			if n := taken[k]; n < len(queue[k]) {
				if queue[k][n] != op.bytes {
					rep.SizeMismatches++
				}
				taken[k] = n + 1
				matchedRecv[dst][i] = true
			} else {
				rep.UnmatchedRecvs++
			}
		}
	}
	// Sends beyond what was received are dropped, the last ones of each key.
	sendsLeft := map[matchKey]int{}
	for k, n := range taken {
		sendsLeft[k] = n
	}
	for k, q := range queue {
		rep.UnmatchedSends += int64(len(q) - taken[k])
	}

	// Collectives: the i-th collective call of every member of a communicator is the
	// same call; each is expanded once, over the communicator's ranks.
	type instance struct {
		progs [][]Op // per communicator rank
	}
	perComm := make([][]int32, len(comms)) // per communicator, per member index: calls seen
	callIndex := make([]int, len(calls))   // call -> instance number on its communicator
	memberIndex := make([]map[int32]int, len(comms))
	for ci, c := range comms {
		memberIndex[ci] = map[int32]int{}
		for i, m := range c.members {
			memberIndex[ci][m] = i
		}
		perComm[ci] = make([]int32, len(c.members))
	}
	// instCalls[ci][n] lists, per member index, the call of instance n.
	instCalls := make([][][]int32, len(comms))
	for rk, p := range progs {
		for _, op := range p {
			if op.kind != 0 {
				continue
			}
			ci := op.comm
			mi := memberIndex[ci][int32(rk)]
			n := perComm[ci][mi]
			perComm[ci][mi]++
			for int(n) >= len(instCalls[ci]) {
				row := make([]int32, len(comms[ci].members))
				for j := range row {
					row[j] = -1
				}
				instCalls[ci] = append(instCalls[ci], row)
			}
			instCalls[ci][n][mi] = op.coll
			callIndex[op.coll] = int(n)
		}
	}
	inst := make([][]*instance, len(comms))
	for ci, list := range instCalls {
		inst[ci] = make([]*instance, len(list))
		for n, row := range list {
			first := int32(-1)
			for mi, c := range row {
				if c < 0 {
					return nil, fmt.Errorf("communicator %d's collective call %d: rank %d never makes it (it makes %d collective calls on it)", ci, n+1, comms[ci].members[mi], perComm[ci][mi])
				}
				if first < 0 {
					first = c
				} else if calls[c].op != calls[first].op {
					return nil, fmt.Errorf("communicator %d's collective call %d is %s on rank %d and %s on rank %d", ci, n+1, calls[first].op, comms[ci].members[0], calls[c].op, comms[ci].members[mi])
				}
			}
			progs, err := expandCall(opt, calls, row, len(comms[ci].members), rep)
			if err != nil {
				return nil, fmt.Errorf("communicator %d's collective call %d (%s): %w", ci, n+1, calls[first].op, err)
			}
			if progs != nil {
				inst[ci][n] = &instance{progs: progs}
			}
		}
	}

	b, err := NewBuilder(ranks)
	if err != nil {
		return nil, err
	}
	// Point-to-point sends are kept up to what was received per key, in order.
	sent := map[matchKey]int{}
	for rk, p := range progs {
		for i, op := range p {
			// The computation before a call stays, whether the call is replayed or not.
			b.Compute(rk, op.compute)
			rep.ComputeCycles += op.compute
			switch op.kind {
			case Send:
				k := matchKey{op.comm, int64(rk), int64(op.peer), op.tag}
				if sent[k] >= sendsLeft[k] {
					continue
				}
				sent[k]++
				b.Send(rk, int(op.peer), op.bytes)
				rep.Messages++
				rep.Bytes += op.bytes
			case Recv:
				if !matchedRecv[rk][i] {
					continue
				}
				b.Recv(rk, int(op.peer))
			default:
				in := inst[op.comm][callIndex[op.coll]]
				if in == nil {
					continue
				}
				members := comms[op.comm].members
				for _, o := range in.progs[memberIndex[op.comm][int32(rk)]] {
					if o.Kind == Send || o.Kind == Recv {
						o.Peer = members[o.Peer]
					}
					b.add(rk, o, 0)
				}
			}
		}
	}
	if b.err != nil {
		return nil, b.err
	}
	return b.Build(name)
}

// expandCall expands one collective call over p ranks (its members' calls in row) into
// per-rank programs, or returns nil (counted as unsupported) for an operation it does
// not replay.
func expandCall(opt ImportOptions, calls []otf2Call, row []int32, p int, rep *ImportReport) ([][]Op, error) {
	c0 := calls[row[0]]
	op := c0.op
	var maxSent, maxRecv, sumSent, sumRecv int64
	for mi, c := range row {
		cl := calls[c]
		if int64(mi) == cl.root && (op == "bcast" || op == "reduce" || op == "gather" || op == "gatherv" || op == "scatter" || op == "scatterv") {
			continue // the root's sizes count the whole buffer
		}
		maxSent = max(maxSent, cl.sent)
		maxRecv = max(maxRecv, cl.received)
		sumSent += cl.sent
		sumRecv += cl.received
	}
	n := int64(len(row))
	others := max(n-1, 1)
	var block int64
	switch op {
	case "barrier":
	case "bcast", "scatter":
		block = maxRecv
	case "reduce", "gather", "allreduce", "allgather":
		block = maxSent
	case "gatherv":
		block = sumSent / others
	case "scatterv":
		block = sumRecv / others
	case "allgatherv":
		block = sumSent / n
	case "alltoall":
		block = maxSent / n
	case "alltoallv":
		block = sumSent / (n * n)
	default:
		rep.Unsupported["collective "+op]++
		return nil, nil
	}
	root := c0.root
	switch op {
	case "bcast", "reduce", "gather", "gatherv", "scatter", "scatterv":
		if root < 0 || root >= n {
			return nil, fmt.Errorf("root %d of %d ranks", root, n)
		}
	default:
		root = 0
	}
	b, err := NewBuilder(p)
	if err != nil {
		return nil, err
	}
	if opt.Collectives == "messages" {
		linearCollective(b, op, int(root), block)
	} else {
		spec := CollectiveAlgorithms[op]
		if a, ok := opt.Algorithms[op]; ok {
			spec = a
		}
		o, alg, _ := strings.Cut(spec, ":")
		c := Collective{Op: o, Algorithm: alg, Bytes: block, Root: int(root)}
		if err := c.AppendTo(b); err != nil {
			return nil, err
		}
	}
	if b.err != nil {
		return nil, b.err
	}
	rep.Collectives[op]++
	for _, prog := range b.progs {
		for _, o := range prog {
			if o.Kind == Send {
				rep.CollectiveMessages++
				rep.CollectiveBytes += o.N
			}
		}
	}
	return b.progs, nil
}

// linearCollective appends op as the messages of its definition, Open MPI's coll/basic
// linear algorithms: a broadcast or scatter sends from the root to every other rank, a
// reduce or gather to the root from every other rank, an allreduce or allgather is
// the one then the other (reduce or gather to rank 0, broadcast of the result), an
// all-to-all sends from every rank to every other one, a barrier is an empty gather
// to rank 0 and an empty broadcast from it.
func linearCollective(b *Builder, op string, root int, block int64) {
	p := b.Tasks()
	toRoot := func(r int, n int64) {
		for i := range p {
			if i != r {
				b.Send(i, r, n)
			}
		}
		for i := range p {
			if i != r {
				b.Recv(r, i)
			}
		}
	}
	fromRoot := func(r int, n int64) {
		for i := range p {
			if i != r {
				b.Send(r, i, n)
			}
		}
		for i := range p {
			if i != r {
				b.Recv(i, r)
			}
		}
	}
	switch op {
	case "bcast", "scatter", "scatterv":
		fromRoot(root, block)
	case "reduce", "gather", "gatherv":
		toRoot(root, block)
	case "allreduce":
		toRoot(0, block)
		fromRoot(0, block)
	case "allgather", "allgatherv":
		toRoot(0, block)
		fromRoot(0, block*int64(p))
	case "barrier":
		toRoot(0, 0)
		fromRoot(0, 0)
	case "alltoall", "alltoallv":
		for i := range p {
			for d := 1; d < p; d++ {
				b.Send(i, (i+d)%p, block)
			}
		}
		for i := range p {
			for d := 1; d < p; d++ {
				b.Recv(i, (i-d+p)%p)
			}
		}
	}
}

// SortedCounts lists a report's counts by name, for printing.
func SortedCounts(m map[string]int64) []string {
	var out []string
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(out)
	return out
}
