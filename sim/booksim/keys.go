package booksim

import "sync"

// role is what Map does with a key.
type role uint8

const (
	// mapped: Map reads the key and turns it into our model.
	mapped role = iota
	// defaultOnly: accepted at BookSim2's default, which is what our model does (or
	// what the mapping assumes); any other value is refused with note, what we would
	// need to model it.
	defaultOnly
	// inert: accepted with any value, because BookSim2 itself does not read the key
	// in the configurations Map accepts (note says when it does).
	inert
)

// keyDef is one key of BookSim2's configuration (src/booksim_config.cpp): the kinds
// of values it takes, its defaults per kind, and what Map does with it.
type keyDef struct {
	name     string
	kinds    Kind
	defInt   int
	defFloat float64
	defStr   string
	role     role
	note     string
}

// Shorthands for the table.
func ki(name string, def int, r role, note string) keyDef {
	return keyDef{name: name, kinds: KindInt, defInt: def, role: r, note: note}
}
func kf(name string, def float64, r role, note string) keyDef {
	return keyDef{name: name, kinds: KindFloat, defFloat: def, role: r, note: note}
}
func ks(name, def string, r role, note string) keyDef {
	return keyDef{name: name, kinds: KindStr, defStr: def, role: r, note: note}
}

// kis is an integer key that also takes a list (BookSim2's "workaround to allow for
// vector specification": the string, when given, wins).
func kis(name string, def int, r role, note string) keyDef {
	return keyDef{name: name, kinds: KindInt | KindStr, defInt: def, role: r, note: note}
}
func kfs(name string, def float64, r role, note string) keyDef {
	return keyDef{name: name, kinds: KindFloat | KindStr, defFloat: def, role: r, note: note}
}

// Notes shared by several keys.
const (
	rwOnly     = "read only with use_read_write = 1 (request-reply traffic), which we refuse"
	outputOnly = "debugging and statistics output, not the simulation"
	powerOnly  = "BookSim2's power model, run after the simulation"
	batchOnly  = "read only with sim_type = batch, which we refuse"
	bufPolicy  = "read only with a shared buffer (buffer_policy other than private), which we refuse"
	specOnly   = "read only with speculative = 1, which we refuse"
)

// keyTable is every key BookSim2's BookSimConfig declares (commit 28f4329), in its
// order. Keys compiled in only with TRACK_FLOWS or TRACK_CREDITS are not here:
// BookSim2 built as usual refuses them too.
var keyTable = []keyDef{
	ks("channel_file", "", defaultOnly, "per-channel lengths from a file"),
	ki("subnets", 1, defaultOnly, "several physical subnetworks"),
	ks("topology", "torus", mapped, ""),
	ki("k", 8, mapped, ""),
	ki("n", 2, mapped, ""),
	ki("c", 1, mapped, ""),
	ks("routing_function", "none", mapped, ""),
	ki("use_noc_latency", 1, mapped, ""),
	ki("x", 8, inert, "read only by cmesh and flatfly (router placement)"),
	ki("y", 8, inert, "read only by cmesh and flatfly (router placement)"),
	ki("xr", 1, mapped, ""),
	ki("yr", 1, inert, "read only by cmesh and flatfly (node placement)"),
	ki("link_failures", 0, defaultOnly, "failed links"),
	kis("fail_seed", 0, inert, "read only with link_failures > 0, which we refuse"),
	ki("in_ports", 5, inert, "declared but read by no BookSim2 code"),
	ki("out_ports", 5, inert, "declared but read by no BookSim2 code"),
	ks("router", "iq", defaultOnly, "BookSim2's event-driven or chaos routers"),
	ki("output_delay", 0, defaultOnly, "a delay at the output ports"),
	ki("credit_delay", 0, defaultOnly, "a credit processing delay: our credits return one link latency after their flit leaves, with no extra delay"),
	kf("internal_speedup", 1.0, defaultOnly, "a crossbar faster than the links (internal speedup)"),
	ki("output_buffer_size", -1, defaultOnly, "bounded output buffers (BookSim2's speedup buffers)"),
	ki("noq", 0, defaultOnly, "next-hop output queueing"),
	ki("speculative", 0, defaultOnly, "speculative switch allocation"),
	ki("spec_check_elig", 1, inert, specOnly),
	ki("spec_check_cred", 1, inert, specOnly),
	ki("spec_mask_by_reqs", 0, inert, specOnly),
	ks("spec_sw_allocator", "prio", inert, specOnly),
	ki("num_vcs", 16, mapped, ""),
	ki("vc_buf_size", 8, mapped, ""),
	ki("buf_size", -1, defaultOnly, "an input buffer shared by the VCs of a port"),
	ks("buffer_policy", "private", defaultOnly, "shared input buffers (BookSim2's buffer policies)"),
	ki("private_bufs", -1, inert, bufPolicy),
	kis("private_buf_size", 1, inert, bufPolicy),
	kis("private_buf_start_vc", -1, inert, bufPolicy),
	kis("private_buf_end_vc", -1, inert, bufPolicy),
	ki("max_held_slots", -1, inert, bufPolicy),
	ki("feedback_aging_scale", 1, inert, bufPolicy),
	ki("feedback_offset", 0, inert, bufPolicy),
	ki("wait_for_tail_credit", 0, defaultOnly, "output VCs held until the credit of the tail flit returns (ours are free once the tail has left)"),
	ki("vc_busy_when_full", 0, defaultOnly, "BookSim2's VC allocation options (VCs busy when full)"),
	ki("vc_prioritize_empty", 0, defaultOnly, "BookSim2's VC allocation options (empty VCs first)"),
	ki("vc_priority_donation", 0, defaultOnly, "BookSim2's VC allocation options (priority donation)"),
	ki("vc_shuffle_requests", 0, defaultOnly, "BookSim2's VC allocation options (shuffled requests)"),
	ki("hold_switch_for_packet", 0, mapped, ""),
	ki("input_speedup", 1, defaultOnly, "crossbar input speedup (ours has one crossbar input per port)"),
	ki("output_speedup", 1, defaultOnly, "crossbar output speedup (ours has one crossbar output per port)"),
	ki("routing_delay", 1, mapped, ""),
	ki("vc_alloc_delay", 1, mapped, ""),
	ki("sw_alloc_delay", 1, mapped, ""),
	ki("st_prepare_delay", 0, mapped, ""),
	ki("st_final_delay", 1, mapped, ""),
	ki("vct", 0, inert, "read only by router = event, which we refuse"),
	ks("vc_allocator", "islip", mapped, ""),
	ks("sw_allocator", "islip", mapped, ""),
	ks("arb_type", "round_robin", defaultOnly, "arbiters other than round-robin (matrix, tree, priority)"),
	ki("alloc_iters", 1, mapped, ""),
	ki("classes", 1, defaultOnly, "several traffic classes"),
	ks("traffic", "uniform", mapped, ""),
	kis("class_priority", 0, inert, "read only with several classes, which we refuse"),
	kis("perm_seed", 0, inert, "read only by traffic = randperm, which we refuse"),
	kfs("injection_rate", 0.1, mapped, ""),
	ki("injection_rate_uses_flits", 0, mapped, ""),
	kis("packet_size", 1, mapped, ""),
	kis("packet_size_rate", 1, inert, "read only with several packet sizes, which we refuse"),
	ks("injection_process", "bernoulli", mapped, ""),
	kf("burst_alpha", 0.5, inert, "read only by injection_process = on_off, which we refuse"),
	kf("burst_beta", 0.5, inert, "read only by injection_process = on_off, which we refuse"),
	kf("burst_r1", -1.0, inert, "read only by injection_process = on_off, which we refuse"),
	ks("priority", "none", defaultOnly, "message priorities (age, class, network age, ...)"),
	ki("batch_size", 1000, inert, batchOnly),
	ki("batch_count", 1, inert, batchOnly),
	ki("max_outstanding_requests", 0, inert, batchOnly),
	kis("use_read_write", 0, defaultOnly, "request-reply traffic (reads and writes, with replies)"),
	kfs("write_fraction", 0.5, inert, rwOnly),
	ki("read_request_begin_vc", 0, inert, rwOnly),
	ki("read_request_end_vc", 5, inert, rwOnly),
	ki("write_request_begin_vc", 2, inert, rwOnly),
	ki("write_request_end_vc", 7, inert, rwOnly),
	ki("read_reply_begin_vc", 8, inert, rwOnly),
	ki("read_reply_end_vc", 13, inert, rwOnly),
	ki("write_reply_begin_vc", 10, inert, rwOnly),
	ki("write_reply_end_vc", 15, inert, rwOnly),
	ki("read_request_subnet", 0, inert, rwOnly),
	ki("read_reply_subnet", 0, inert, rwOnly),
	ki("write_request_subnet", 0, inert, rwOnly),
	ki("write_reply_subnet", 0, inert, rwOnly),
	kis("read_request_size", 1, inert, rwOnly),
	kis("write_request_size", 1, inert, rwOnly),
	kis("read_reply_size", 1, inert, rwOnly),
	kis("write_reply_size", 1, inert, rwOnly),
	ks("sim_type", "latency", defaultOnly, "BookSim2's throughput and batch modes (ours measures a window at an offered load, as sim_type = latency does)"),
	ki("warmup_periods", 3, mapped, ""),
	ki("sample_period", 1000, mapped, ""),
	ki("max_samples", 10, mapped, ""),
	kis("measure_stats", 1, defaultOnly, "classes left out of the statistics"),
	ki("pair_stats", 0, inert, outputOnly),
	kfs("latency_thres", 500.0, inert, "BookSim2 ends a run early, as unstable, once its mean latency passes this; ours measures every load to the end and calls a run saturated when its delivered traffic falls short of the generated, so any value is accepted (raise it in BookSim2 to measure accepted throughput past saturation)"),
	kfs("warmup_thres", 0.05, inert, "read only with warmup_periods = 0, which we refuse"),
	kfs("acc_warmup_thres", 0.05, inert, "read only with warmup_periods = 0, which we refuse"),
	kfs("stopping_thres", 0.05, defaultOnly, "BookSim2's convergence test on latency (we measure a window of fixed length, checked for stationarity)"),
	kfs("acc_stopping_thres", 0.05, defaultOnly, "BookSim2's convergence test on accepted traffic (we measure a window of fixed length, checked for stationarity)"),
	ki("sim_count", 1, defaultOnly, "several simulations in one run (a spec's seeds: replicate a point)"),
	ki("include_queuing", 1, defaultOnly, "latencies without the source queue (ours report both: latency_network and latency_e2e)"),
	kis("seed", 0, mapped, ""),
	ki("print_activity", 0, inert, outputOnly),
	ki("print_csv_results", 0, inert, outputOnly),
	ki("deadlock_warn_timeout", 256, inert, "a warning BookSim2 prints; our watchdog reports deadlocks itself"),
	ki("viewer_trace", 0, inert, outputOnly),
	ks("watch_file", "", inert, outputOnly),
	ks("watch_flits", "", inert, outputOnly),
	ks("watch_packets", "", inert, outputOnly),
	ks("watch_transactions", "", inert, outputOnly),
	ks("watch_out", "", inert, outputOnly),
	ks("stats_out", "", inert, outputOnly),
	ks("sent_packets_out", "", inert, outputOnly),
	ki("sim_power", 0, inert, powerOnly),
	ks("power_output_file", "pwr_tmp", inert, powerOnly),
	ks("tech_file", "", inert, powerOnly),
	ki("channel_width", 128, inert, powerOnly),
	ki("channel_sweep", 0, inert, powerOnly),
	ks("network_file", "", mapped, ""),
}

var keyIndex = sync.OnceValue(func() map[string]int {
	m := make(map[string]int, len(keyTable))
	for i, k := range keyTable {
		m[k.name] = i
	}
	return m
})

func lookupKey(name string) (keyDef, bool) {
	i, ok := keyIndex()[name]
	if !ok {
		return keyDef{}, false
	}
	return keyTable[i], true
}
