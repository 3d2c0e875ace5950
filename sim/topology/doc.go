// Package topology owns the network graph of twintorus and the topology spec string.
//
// A Network is plain data: switches with numbered ports, each port labelled with its
// role (an external port of a dimension and direction, the internal link of an nDT
// node, or a terminal port), bidirectional links between ports, terminals (PEs)
// attached to switches, and node coordinates. Every id is a dense integer so that the
// engine and the analyses index flat arrays with it.
//
// Builders make tori and meshes of any radix per dimension (1 to 8 dimensions, any
// number of PEs per switch) and nDT twin tori for n ≥ 2 with any port configuration:
// the letters A–J of the 3DT papers (n = 3), CBest, or an explicit list of Card0's
// ports. One spec string names each network (see Parse for the grammar).
//
// Numbering conventions, which change results of permutation traffic and so are part
// of the contract:
//   - node index o = o_0 + k_0·(o_1 + k_1·(o_2 + …)), dimension 0 varies fastest;
//   - torus and mesh: switch id = node index; PE id = c·node + j for the j-th of c PEs;
//   - twin: switch id = 2·node + card; PE id = card + 2·node (PE0 on Card0, PE1 on Card1);
//   - port d_i+ of node o links to port d_i- of node o+1 (mod k_i).
//
// The package knows nothing about routing, traffic or simulation.
package topology
