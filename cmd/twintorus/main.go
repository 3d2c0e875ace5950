// Command twintorus analyses and simulates interconnection networks: nDT twin tori,
// tori and meshes. Run `twintorus help` for the commands.
//
// Exit status: 0 on success, 1 on an error, 3 when a simulation stopped on a deadlock
// (the run's report, with the cycle of waiting channels, is printed first).
package main

import (
	"errors"
	"fmt"
	"os"
)

// exitDeadlock is the exit status of a run that stopped on a deadlock.
const exitDeadlock = 3

// statusError is an error that exits with its own status instead of 1.
type statusError struct {
	status int
	err    error
}

func (e statusError) Error() string { return e.err.Error() }
func (e statusError) Unwrap() error { return e.err }

func main() {
	if err := newRoot().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "twintorus:", err)
		status := 1
		if se := (statusError{}); errors.As(err, &se) {
			status = se.status
		}
		os.Exit(status)
	}
}
