// Package sysmem owns what the engine asks of the machine's memory: how much a process
// may use (Limit), and huge pages for the large tables a big simulation reads at random
// (MakeHuge). The engine compares a run's estimated footprint with Limit, so that a
// simulation too big for the machine is refused before it allocates rather than killed
// midway; PeakRSS is what the process held at most, which twintorus run prints beside
// the estimate.
package sysmem
