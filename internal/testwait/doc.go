// Package testwait owns how long a test waits for something outside itself (a
// browser, a Jupyter server, a Slurm job, a child process) on a machine that other work
// keeps busy.
//
// A test that waits a fixed time fails on a loaded machine that is only slow, not
// broken. scripts/gotest.sh (make test) measures how busy the machine is when it starts
// and exports the factor as TWINTORUS_TEST_SLOWDOWN; Scale stretches a wait by it. The
// waits themselves stay what they are on a quiet machine, so a real hang is still
// reported, only later.
package testwait
