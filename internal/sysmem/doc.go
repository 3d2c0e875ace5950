// Package sysmem owns one question about the machine: how much memory a process may
// use. The engine compares a run's estimated footprint with it, so that a simulation
// too big for the machine is refused before it allocates rather than killed midway.
package sysmem
