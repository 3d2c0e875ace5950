package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twintorus/twintorus/internal/version"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/topology"
)

// Options control how Run runs a sweep. Only Out is required.
type Options struct {
	// Out is the results store directory; it is created if needed.
	Out string
	// Workers is the number of simulations run at once; 0 means one per CPU
	// (runtime.GOMAXPROCS). Results do not depend on it.
	Workers int
	// Shard restricts the run to one share of the sweep, as a Slurm array task does.
	Shard Shard
	// Progress, when set, is called with the number of simulations done and the
	// number this run will make: at the start with done = 0, then after each one.
	// Records already in the store are not counted. Under an automatic load search,
	// past_saturation or a precision target, total is an upper bound (every seed of
	// every load that may still run) that shrinks as curves end and points turn out
	// precise; it never grows. Calls come from one goroutine at a time, in order.
	Progress func(done, total int)
	// Log receives warnings, one line each: corrupt records found and recomputed.
	// Nil discards them.
	Log io.Writer
	// OnRecord, when set, is called with each record this run simulated, the moment
	// it is in place in the store (so that a process killed right after still has
	// it), from the worker that made it. Calls are serialised: one at a time.
	OnRecord func(*Record)
}

// Shard is share Index of Count of a sweep (0 ≤ Index < Count). With fixed loads the
// sweep's simulations, in canonical order, are dealt round-robin: simulation i belongs
// to shard i mod Count. Under a precision target whole points are dealt (point i of
// curve, then load order, to shard i mod Count), since a point's later seeds depend on
// its earlier ones. With an automatic load search, or past_saturation, whole curves
// are dealt, since a curve's loads then run in sequence. The zero Shard is the whole
// sweep.
type Shard struct{ Index, Count int }

// ParseShard reads "I/N", e.g. "3/8".
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	idx, err1 := strconv.Atoi(i)
	cnt, err2 := strconv.Atoi(n)
	sh := Shard{Index: idx, Count: cnt}
	if !ok || err1 != nil || err2 != nil || cnt < 1 || sh.check() != nil {
		return Shard{}, fmt.Errorf("shard %q: write I/N with 0 <= I < N, e.g. 0/4", s)
	}
	return sh, nil
}

func (s Shard) check() error {
	if s == (Shard{}) {
		return nil
	}
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d/%d: want 0 <= index < count", s.Index, s.Count)
	}
	return nil
}

func (s Shard) String() string {
	if s.Count == 0 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

func (s Shard) owns(i int) bool { return s.Count <= 1 || i%s.Count == s.Index }

// Results is what Run did.
type Results struct {
	Spec   Spec    // defaults filled in
	Curves []Curve // every curve of the spec, this shard's or not
	// Records are this run's records, found in the store or simulated now: by curve
	// in spec order, then load (as listed, or in search order), then replication.
	// Under a precision target they are the replications the target asked for, even
	// when the store holds more of a point's seeds.
	Records    []Record
	Stored     int // records found in the store
	Simulated  int // simulations run
	Recomputed int // of which: records that were in the store but corrupt
	// Planned is the number of simulations this run (this shard) is made of, with
	// fixed loads; -1 under a load search, past_saturation or a precision target,
	// where a curve's loads or a point's replications depend on what it shows. A run
	// that stopped early has fewer Records.
	Planned int
	// Unfinished is the number of curves whose load walk (search or past_saturation)
	// or whose points' replications (precision target) had not ended when the run
	// stopped; 0 with fixed loads and no target.
	Unfinished int
	Elapsed    time.Duration
}

// Summaries summarises the records; see Summarize.
func (r *Results) Summaries(metrics ...string) []Summary { return Summarize(r.Records, metrics...) }

// Saturations reports each curve's saturation load and throughput; see Saturations.
func (r *Results) Saturations() []Saturation { return Saturations(r.Records) }

// Run runs a sweep: it validates the spec (nothing runs if it is wrong), expands it
// into simulations, takes those already in the results store, runs the others on
// Options.Workers goroutines and stores each result as soon as it is known. Killed at
// any moment, it loses at most the simulations in flight; run again, it runs only
// what is missing. Cancelling ctx stops it within a few thousand simulated cycles,
// with every finished record stored; the error then wraps ctx.Err(), and Results
// holds what was done.
func Run(ctx context.Context, spec Spec, opt Options) (*Results, error) {
	start := time.Now()
	curves, err := spec.Curves()
	if err != nil {
		return nil, err
	}
	if opt.Workers < 0 {
		return nil, fmt.Errorf("workers %d: want 0 (one per CPU) or more", opt.Workers)
	}
	if err := opt.Shard.check(); err != nil {
		return nil, err
	}
	if opt.Workers == 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	store, err := OpenStore(opt.Out)
	if err != nil {
		return nil, err
	}
	store.removeStaleTemps()
	spec = spec.withDefaults()
	// The spec goes to DIR/specs with the first record that names it (Store.Put):
	// a sweep that finds everything stored writes nothing.
	stored := spec
	stored.src = nil
	host, _ := os.Hostname()
	r := &runner{spec: stored, hash: spec.Hash(), curves: curves, store: store, opt: opt, host: host, version: version.String(),
		res: &Results{Spec: stored, Curves: curves}}
	if spec.sequential() {
		err = r.curvewise(ctx)
	} else {
		err = r.fixed(ctx)
	}
	r.res.Elapsed = time.Since(start)
	return r.res, err
}

type runner struct {
	spec    Spec
	hash    string
	curves  []Curve
	store   *Store
	opt     Options
	host    string
	version string
	res     *Results

	done, total int // simulations, for Progress

	onRecord sync.Mutex // serialises Options.OnRecord
}

func (r *runner) progress() {
	if r.opt.Progress != nil {
		r.opt.Progress(r.done, r.total)
	}
}

// finished reports the end of a run whose total was an upper bound: done of done,
// so that a progress bar ends full.
func (r *runner) finished() {
	if r.total != r.done {
		r.total = r.done
		r.progress()
	}
}

// fixed runs the sweep's simulations at fixed loads.
func (r *runner) fixed(ctx context.Context) error {
	if r.spec.Precision != nil {
		return r.fixedPrecision(ctx)
	}
	var jobs []job
	for i, j := range r.spec.jobs(r.curves) {
		if r.opt.Shard.owns(i) {
			jobs = append(jobs, j)
		}
	}
	r.res.Planned = len(jobs)
	recs := make([]*Record, len(jobs))
	todo, err := r.resolve(ctx, jobs, recs)
	if err == nil {
		r.total = len(todo)
		r.progress()
		err = r.simulate(ctx, jobs, todo, recs)
	}
	r.keep(recs)
	return err
}

// fixedPrecision runs a sweep at fixed loads under a precision target: every point
// (curve and load) replicated until precise enough, all points' batches of a round
// at once. A shard owns whole points, point i of the canonical order (curve, then
// load as listed) belonging to shard i mod Count, since a point's later seeds depend
// on its earlier ones.
func (r *runner) fixedPrecision(ctx context.Context) error {
	var points []*replicating
	i := 0
	for _, c := range r.curves {
		for _, load := range r.spec.loadValues() {
			if r.opt.Shard.owns(i) {
				points = append(points, &replicating{curve: c, load: load})
			}
			i++
		}
	}
	r.res.Planned = -1
	err := r.replicate(ctx, points, 0)
	if err == nil {
		r.finished()
	}
	unfinished := map[int]bool{}
	for _, p := range points {
		r.res.Records = append(r.res.Records, p.records...)
		if !p.done {
			unfinished[p.curve.Index] = true
		}
	}
	r.res.Unfinished = len(unfinished)
	return err
}

// replicating is one point, a curve at one load, being replicated: its records by
// replication, and whether its replications are over.
type replicating struct {
	curve   Curve
	load    float64
	batch   int // index into Spec.batches of the batch to run next
	records []Record
	done    bool
}

// replicate runs the points' replications to the end, in rounds: each round runs
// the next batch of every point not yet done (spec.batches: all seeds at once without
// a precision target), then judges each point on its own records alone, so the set of
// simulations does not depend on the worker count, on timing or on what the store
// already held. later bounds the simulations the caller will run after these, for
// Progress. On an error the points keep the records that were finished, in
// replication order, gaps left out.
func (r *runner) replicate(ctx context.Context, points []*replicating, later int) error {
	batches := r.spec.batches()
	for {
		var open []*replicating
		var jobs []job
		var ends []int // jobs[ends[i-1]:ends[i]] are open[i]'s
		for _, p := range points {
			if !p.done {
				open = append(open, p)
				jobs = append(jobs, r.spec.repsAt(p.curve, p.load, len(p.records), batches[p.batch])...)
				ends = append(ends, len(jobs))
			}
		}
		if len(open) == 0 {
			return nil
		}
		recs := make([]*Record, len(jobs))
		todo, err := r.resolve(ctx, jobs, recs)
		if err != nil {
			return err
		}
		// The most this run may still make: this round's, every open point's seeds
		// past this round (a point that turns out precise makes none of them), and
		// the caller's.
		rest := later
		for _, p := range open {
			rest += r.spec.Seeds - batches[p.batch]
		}
		r.total = r.done + len(todo) + rest
		r.progress()
		err = r.simulate(ctx, jobs, todo, recs)
		from := 0
		for i, p := range open {
			for _, rec := range recs[from:ends[i]] {
				if rec != nil {
					p.records = append(p.records, *rec)
				}
			}
			from = ends[i]
			if err != nil {
				continue
			}
			p.batch++
			p.done = p.batch == len(batches) || r.spec.Precision != nil && r.spec.Precision.met(p.records)
		}
		if err != nil {
			return err
		}
	}
}

// search is the state of one curve's walk along its loads: an automatic search, or a
// fixed list cut short past saturation.
type search struct {
	curve   Curve
	next    float64 // load to run next
	done    bool
	records []Record
	// automatic search
	coarse  int     // index of the current coarse load: From + coarse·Step
	lo, hi  float64 // highest load that did not saturate (0 if none), lowest that did (NaN until found)
	refined int     // bisection steps scheduled
	// fixed list
	index     int // of next in Loads.Values
	saturated int // loads that saturated so far
}

// curvewise runs every curve's loads in sequence, all curves' current loads at once,
// so that what a load shows (saturated or not) decides the next.
func (r *runner) curvewise(ctx context.Context) error {
	var searches []*search
	for _, c := range r.curves {
		if r.opt.Shard.owns(c.Index) {
			s := &search{curve: c, hi: math.NaN()}
			if a := r.spec.Loads.Auto; a != nil {
				s.next = roundLoad(a.From)
			} else {
				s.next = r.spec.Loads.Values[0]
			}
			searches = append(searches, s)
		}
	}
	r.res.Planned = -1
	defer func() {
		for _, s := range searches {
			r.res.Records = append(r.res.Records, s.records...)
			if !s.done {
				r.res.Unfinished++
			}
		}
	}()
	for {
		var active []*search
		var points []*replicating
		later := 0
		for _, s := range searches {
			if !s.done {
				active = append(active, s)
				points = append(points, &replicating{curve: s.curve, load: s.next})
				later += (r.remaining(s) - 1) * r.spec.Seeds
			}
		}
		if len(active) == 0 {
			r.finished()
			return nil
		}
		// Under a precision target a load's replications run in rounds before the
		// curve moves on; its saturation is judged on the replications it ran.
		err := r.replicate(ctx, points, later)
		for i, s := range active {
			p := points[i]
			s.records = append(s.records, p.records...)
			if err == nil {
				sat := 0
				for _, rec := range p.records {
					if rec.Result.Saturated {
						sat++
					}
				}
				r.advance(s, 2*sat >= len(p.records))
			}
		}
		if err != nil {
			return err
		}
	}
}

// advance records whether the current load saturated and picks the next one.
func (r *runner) advance(s *search, saturated bool) {
	if a := r.spec.Loads.Auto; a != nil {
		s.advanceAuto(*a, saturated)
		return
	}
	if saturated {
		s.saturated++
	}
	s.index++
	if s.saturated > r.spec.PastSaturation || s.index == len(r.spec.Loads.Values) {
		s.done = true
		return
	}
	s.next = r.spec.Loads.Values[s.index]
}

// remaining bounds the loads the curve will still run, the current one included.
func (r *runner) remaining(s *search) int {
	if a := r.spec.Loads.Auto; a != nil {
		return s.remainingAuto(*a)
	}
	return min(len(r.spec.Loads.Values)-s.index, r.spec.PastSaturation+1-s.saturated)
}

func (s *search) advanceAuto(a AutoSearch, saturated bool) {
	load := s.next
	if math.IsNaN(s.hi) && !saturated { // still climbing
		s.lo = load
		s.coarse++
		if s.next = roundLoad(a.From + float64(s.coarse)*a.Step); s.next > a.Max+1e-9 {
			s.done = true
		}
		return
	}
	if saturated {
		s.hi = load
	} else {
		s.lo = load
	}
	mid := roundLoad((s.lo + s.hi) / 2)
	if s.refined >= a.Refine || mid <= s.lo || mid >= s.hi {
		s.done = true
		return
	}
	s.next, s.refined = mid, s.refined+1
}

func (s *search) remainingAuto(a AutoSearch) int {
	if !math.IsNaN(s.hi) {
		return a.Refine - s.refined + 1
	}
	return int(math.Floor((a.Max-s.next)/a.Step+1e-9)) + 1 + a.Refine
}

// roundLoad rounds a search load to 1e-6, so that it prints and hashes the same.
func roundLoad(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// resolve fills recs with the records already stored and returns the indices of the
// jobs to run. Corrupt records are reported and run again. A store of many records
// takes a while to read: cancelling ctx stops it.
func (r *runner) resolve(ctx context.Context, jobs []job, recs []*Record) (todo []int, err error) {
	for i, j := range jobs {
		if err := ctx.Err(); err != nil {
			return nil, r.stopped(err)
		}
		rec, err := r.store.Get(j.key)
		if err != nil {
			fmt.Fprintf(r.opt.Log, "experiment: %v; recomputing it\n", err)
			r.res.Recomputed++
		}
		if rec == nil {
			todo = append(todo, i)
			continue
		}
		recs[i] = rec
		r.res.Stored++
	}
	return todo, nil
}

func (r *runner) keep(recs []*Record) {
	for _, rec := range recs {
		if rec != nil {
			r.res.Records = append(r.res.Records, *rec)
		}
	}
}

// simulate runs jobs[i] for i in todo on the worker pool, storing each record.
func (r *runner) simulate(parent context.Context, jobs []job, todo []int, recs []*Record) error {
	if len(todo) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	type outcome struct {
		i   int
		rec *Record
		err error
	}
	feed := make(chan int)
	out := make(chan outcome)
	var wg sync.WaitGroup
	threads := threadsPerSimulation(r.opt.Workers, len(todo))
	for range min(r.opt.Workers, len(todo)) {
		wg.Go(func() {
			for i := range feed {
				rec, err := r.one(ctx, jobs[i], threads)
				out <- outcome{i, rec, err}
			}
		})
	}
	go func() {
		defer close(feed)
		for _, i := range todo {
			select {
			case feed <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(out)
	}()
	var first error
	completed := 0
	for o := range out {
		if o.err != nil {
			if first == nil {
				first = o.err
				cancel()
			}
			continue
		}
		recs[o.i] = o.rec
		completed++
		r.res.Simulated++
		r.done++
		r.progress()
	}
	if err := parent.Err(); err != nil && completed < len(todo) {
		return r.stopped(err)
	}
	return first
}

// stopped is the error of a run cancelled by its context.
func (r *runner) stopped(err error) error {
	return fmt.Errorf("sweep stopped after %d simulations (each one finished is stored; run again to resume): %w", r.done, err)
}

// threadsPerSimulation is how many cores each simulation of a batch of n uses when
// workers cores run it: one while there are at least as many simulations as cores
// (parallel points cost nothing to coordinate), else the cores shared among the few
// (the last loads of a curve search, a handful of large points). Results do not
// depend on it; a spec's engine key threads, when given, wins.
func threadsPerSimulation(workers, n int) int {
	if n < 1 || n >= workers {
		return 1
	}
	return min(workers/n, engine.MaxThreads)
}

// minSwitchesForThreads is the smallest network whose simulation the runner gives
// several cores. Below it a simulation on two threads took as long as on one or
// longer (BENCHMARKS.md, issue 15, thirteenth part): generation, injection and the
// deliveries run on one core and touch every region's state, and three hand-overs a
// cycle cost more than a small network's phases save.
const minSwitchesForThreads = 8192

// threadsFor is the thread count the runner gives point p's simulation out of the
// threads its batch allows: one below minSwitchesForThreads switches, or when the
// topology's size is not known without building it (a file).
func threadsFor(p Point, threads int) int {
	if threads <= 1 {
		return 1
	}
	spec, err := topology.Parse(p.Topology)
	if err != nil {
		return 1 // Build reports it
	}
	if z, ok := spec.Size(); !ok || z.Switches < minSwitchesForThreads {
		return 1
	}
	return threads
}

// one runs job j, on threads cores (as threadsFor allows) unless its point names a
// thread count.
func (r *runner) one(ctx context.Context, j job, threads int) (*Record, error) {
	if j.point.Threads == 0 {
		j.point.Threads = threadsFor(j.point, threads)
	}
	c := r.curves[j.curve]
	what := func() string { return fmt.Sprintf("%s at load %g, seed %d", c.Name, j.point.Load, j.point.Seed) }
	e, err := j.point.Build()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what(), err)
	}
	res, err := e.Run(ctx)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", what(), err)
	}
	rec := &Record{Key: j.key, Model: ModelVersion, Version: r.version, SpecHash: r.hash, Spec: r.spec, Curve: c.Name,
		Replication: j.rep, Point: j.point, Result: res, Host: r.host, Time: time.Now().UTC()}
	var placed func()
	if r.opt.OnRecord != nil {
		placed = func() {
			r.onRecord.Lock()
			defer r.onRecord.Unlock()
			r.opt.OnRecord(rec)
		}
	}
	if err := r.store.put(rec, placed); err != nil {
		return nil, err
	}
	return rec, nil
}
