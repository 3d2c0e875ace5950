// Package topology owns the network graph of twintorus, the network families and the
// topology spec string.
//
// A Network is plain data: switches with numbered ports, each port labelled with its
// role (a dimension and direction, the internal link of an nDT node, a terminal port,
// or nothing in particular with an optional free label), links between ports
// (bidirectional or one-way, with an optional latency), terminals (PEs) attached to
// switches, and optional coordinates (a grid of nodes). Every id is a dense integer
// so that the engine and the analyses index flat arrays with it. Nothing assumes a PE
// per switch or coordinates per switch.
//
// A Builder makes any network from a notebook cell and validates it; every family
// builds through one. The families are one table, Families(): each is a file here
// (torus.go, mesh.go, twin.go, file.go, anynet.go) with its spec grammar, its builder
// and its default routing's name; Parse, Build, the grammar help, the command line's
// analyze and configs, and docs/families.md read the table. Networks also come from
// files: WriteJSON/ReadJSON (file:PATH) and BookSim2's anynet format (anynet:PATH).
//
// HyperX (hyperx.go, which the flattened butterfly builds through) and Slim Fly
// (slimfly.go, with its finite field GF) are families too; a Slim Fly has no grid.
//
// Numbering conventions of the grid families, which change results of permutation
// traffic and so are part of the contract:
//   - node index o = o_0 + k_0·(o_1 + k_1·(o_2 + …)), dimension 0 varies fastest;
//   - torus and mesh: switch id = node index; PE id = c·node + j for the j-th of c PEs;
//   - twin: switch id = 2·node + card; PE id = card + 2·node (PE0 on Card0, PE1 on Card1);
//   - port d_i+ of node o links to port d_i- of node o+1 (mod k_i).
//
// The package knows nothing about routing, traffic or simulation.
package topology
