// Package relay runs between Jupyter and gonb and gives the "twintorus" kernel what
// gonb v0.11.1 lacks: a cell whose program fails (a panic, os.Exit(1), a signal) ends
// with an error, and Run All stops there.
//
// gonb reports only compile errors as errors. When the cell's program exits non-zero
// it publishes the exit as one stderr line ("exit status 2", "signal: killed") and
// replies "ok"; and it runs every execute request it is sent, ignoring the
// request's stop_on_error. The relay owns the connection Jupyter gives the kernel,
// starts gonb on a private one (Unix sockets in a temporary directory) and passes
// every message through unchanged, except that it
//
//   - sends gonb one execute request at a time, queueing the rest itself;
//   - watches gonb's output for the finishing request: when its program's exit line
//     appears, the relay turns gonb's "ok" reply into an error reply and publishes an
//     error output (ename "CellFailed", the panic message as evalue), before the
//     kernel's idle status;
//   - after any error reply to a request with stop_on_error (the default of the
//     notebook UI and nbconvert), answers the requests still queued with "aborted",
//     as ipykernel does, so Run All stops at the failing cell.
//
// It also makes completion and inline documentation (gopls, through gonb) answer:
//
//   - a complete or inspect request that gonb answers with gopls' timeout or "no
//     package metadata" (gopls still loading the packages of the first request after
//     a kernel starts, or of new imports) is asked again a second later, for up to a
//     minute while gonb's answers take its whole two-second deadline, up to ten
//     seconds while they come at once (docs.go);
//   - inspect replies link the module's symbols to pkg.go.dev by module path: gopls
//     makes their links from the directory the module is replaced with (FixDocLinks);
//   - gonb's gopls is a proxy (ServeGopls, run through a "gopls" script first on
//     gonb's PATH) that turns gonb's file-change notifications, which make gopls
//     prepend a file's new text to its old one, into the full-text changes gonb
//     means; without it a go.mod changed by `go get` broke gopls until the kernel
//     restarted (gopls.go).
//
// gonb's log (klog, on the relay's stderr: Jupyter's log) is quiet unless
// TWINTORUS_KERNEL_VERBOSE says otherwise (ParseVerbose, GonbLogFlags).
//
// Messages keep their signatures; the relay signs only the messages it makes or
// changes, with the connection's key. Routing needs no table: requests are passed on
// with the client's identity frames, which gonb echoes back.
//
// The engine of this is the State type (no sockets, fully tested); Run wires it to
// ZeroMQ sockets (github.com/go-zeromq/zmq4, the library gonb itself uses) and to
// the gonb process, whose exit ends the relay with the same status. Which checkout
// the kernel serves, and so which gonb and environment Run gets, is the kernel
// package's choice (kernel.ServedFor).
package relay
