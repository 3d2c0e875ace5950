// Package traffic owns the synthetic open-loop workload of twintorus: where each
// message goes (destination patterns), how many packets it carries (message sizes)
// and when a PE generates one (Bernoulli injection). It reads topology.Network for
// the PE numbering and node coordinates; it knows nothing about routing or the
// engine, and keeps no global state: every random draw comes from the caller's
// *rand.Rand, so a run is deterministic given its rng.
//
// # PE numbering
//
// Permutation patterns act on PE ids, so the numbering is part of the contract (it is
// the one of package topology and docs/model.md):
//   - node index o = o_0 + k_0·(o_1 + k_1·(o_2 + …)), dimension 0 varies fastest;
//   - twin torus: PE = card + 2·node (PE 0 on Card0 of node 0, PE 1 on its Card1);
//   - torus and mesh with c PEs per switch: PE = c·node + j, j in [0, c).
//
// ParsePattern checks that the network attaches its PEs this way and refuses it
// otherwise. Write P for the PEs per node (2 in a twin torus, c otherwise) and
// "slot" for PE mod P (the card in a twin torus).
//
// A numbering order changes the ids an id permutation acts on: PERM/ORDER (bitrev/yx,
// shuffle/zyx, ...) numbers the nodes with their coordinates in ORDER, the first
// varying fastest (letters x, y, z; digits for grids of more dimensions), keeping the
// slot: bitrev/yx reverses the bits of slot + P·(y + K_y·x). The default order is the
// numbering above. The papers do not say how they number nodes, and the choice moves
// a permutation's traffic (bit-reversal on the twisted tori: see docs/model.md).
//
// # Patterns
//
// A pattern spec names a destination pattern (see Grammar):
//
//	uniform       uniform among the other N−1 PEs
//	zipf:S        destination offset r = (dst − src) mod N drawn with P(r) ∝ r^−S, r in 1..N−1
//	zipf:S/global destination rank dst+1 drawn with P(dst) ∝ (dst+1)^−S over dst ≠ src
//	bitrev        reverse the b bits of the id (N = 2^b)
//	shuffle       rotate the b bits of the id left by one (N = 2^b)
//	butterfly     swap the most and the least significant bit of the id (N = 2^b)
//	complement    N−1−src: the bitwise complement when N = 2^b; any N
//	transpose     src = r·m + c goes to c·m + r for N = m²; for N = 4^h this swaps the
//	              high and low halves of the id's bits
//	randperm:S    a random permutation without fixed points, drawn from seed S (default 1),
//	              the same in every run: the permutation for any PE count
//	tornado       every node coordinate o_i goes to o_i + ⌈k_i/2⌉ − 1 mod k_i; the PE keeps its slot
//	neighbor      every node coordinate o_i goes to o_i + 1 mod k_i; the PE keeps its slot
//	hotspot:F@HOT fraction F of the messages go to a hot PE, the rest are uniform
//	PERM/ORDER    one of the five id permutations above on renumbered ids (see PE numbering)
//
// Zipf: the papers cite the NPF switch-fabric benchmark but give neither the exponent
// nor how destinations are ranked. The default ranks destinations by their offset from
// the source, so every PE sees the same distribution and every PE receives the same
// total load: the pattern is skewed per source but has no global hot spot, and S = 0 is
// uniform. The /global variant ranks by PE id (PE 0 the most popular for everyone),
// which is a hot-spot pattern; it is there to test how much the choice matters.
//
// Hot spots: HOT is a list of PE ids and ranges ("0,17,32-47"; default "0") or a share
// of the PEs ("12.5%": H = round(share·N) PEs, at least one), placed by /PLACE
// (Placement): spread, the default, takes the evenly spaced ids ⌊i·N/H⌋, lowest the H
// lowest ids and random H ids drawn from the run's seed (Seeded). So both readings of
// "hot spot" in the papers are expressible: a fraction of the traffic (F) goes to a
// fraction of the PEs (HOT). A share's canonical name always carries its placement
// (hotspot:0.2@5%/spread), so runs made when lowest was the only placement (named
// hotspot:0.2@5%) never pass for spread ones. With probability F a message goes to a hot
// PE other than its source, uniformly; otherwise (and when the source is the only hot
// PE) its destination is uniform among all other N−1 PEs, hot ones included, as in the
// "hot region" of the twisted-tori paper (25 % to the lowest 12.5 %, 75 % uniform:
// hotspot:0.25@12.5%/lowest).
//
// Tornado and neighbor act on the network's node coordinates (on a mesh they wrap
// around too, so they stay permutations). Tornado is Dally and Towles' worst case for
// tori: ⌈k/2⌉ − 1 hops in every dimension, 3 hops on an 8-ring. A torus of clusters
// (TCT, TCC) has no node coordinates but a meta torus (topology.Network.PatternGrid):
// there the patterns move whole clusters, PE 2n·m + i going to cluster node i of the
// moved meta node. Twisted tori use their Cartesian coordinates (x, y, z), so tornado
// there is the standard torus's pattern on the same node ids.
//
// Fixed points: a permutation maps some PEs to themselves (bitrev maps 0 to 0, for
// instance). Such a PE sends nothing: Dest returns −1. Silent reports how many PEs are
// silent so that the offered load can be stated honestly (the network is offered
// load·(N − Silent) flits per cycle, not load·N).
//
// # Message sizes
//
// A Sizes is a mixture of packet counts, each with a weight in percent: "70%x1,30%x3"
// (3DT journal), "70%x2,30%x8" (nDT paper), a plain count "1", or a uniform range
// "1-32" (any component may be a range: "50%x1,50%x4-8"). The unit is the packet; the
// packet length in flits is the engine's parameter. The EXTOLL paper's packets of 1–32
// cells are "1-32" with a packet of one flit of one cell: the engine then sees a
// message of n one-cell packets, not one packet of n cells (see Sizes).
//
// # Injection
//
// Each PE generates messages by a Bernoulli trial per cycle with probability
// p = load / (mean message size in flits), load being the offered load in
// flits/cycle/PE. NextGap draws the cycles to the next generation from the geometric
// distribution of the same process, so the engine can skip idle cycles.
package traffic
