package figures

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/sim/engine"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/topology"
)

// LinkUseFile is the stored table of link utilisation per dimension (the twisted-tori
// paper's Fig. 10), one row per simulation run with channel counters; tools/linkuse
// writes it from results stores.
const LinkUseFile = "twisted-links.csv"

// LinkUse is one simulation's utilisation of the network channels per dimension: the
// mean, over the channels of dimension d in both directions, of the flits they carried
// per cycle of the measurement window.
type LinkUse struct {
	Topology, Selection, Traffic string
	Load                         float64
	Seed                         uint64
	Accepted                     float64
	Saturated                    bool
	Dims                         []float64
}

// DimensionUse averages per-channel utilisation (engine.Result.ChannelUtil, by global
// port id) over the connected dimension ports of each dimension of net; terminal and
// internal ports are left out.
func DimensionUse(net *topology.Network, util []float64) ([]float64, error) {
	if len(util) != net.TotalPorts() {
		return nil, fmt.Errorf("figures: %d channel utilisations for %s, which has %d ports (run with channels on)", len(util), net, net.TotalPorts())
	}
	sum := make([]float64, net.Dims())
	n := make([]int, net.Dims())
	for s := 0; s < net.Switches(); s++ {
		for p := 0; p < net.Ports(s); p++ {
			port := net.Port(s, p)
			if port.Kind == topology.Terminal || port.Kind == topology.Internal || port.Dim < 0 || !port.Connected() {
				continue
			}
			sum[port.Dim] += util[net.PortID(s, p)]
			n[port.Dim]++
		}
	}
	for d := range sum {
		if n[d] > 0 {
			sum[d] /= float64(n[d])
		}
	}
	return sum, nil
}

// LinkUseOf is the link use of one simulation of point p on net.
func LinkUseOf(net *topology.Network, p experiment.Point, r *engine.Result) (LinkUse, error) {
	dims, err := DimensionUse(net, r.ChannelUtil)
	if err != nil {
		return LinkUse{}, err
	}
	return LinkUse{Topology: p.Topology, Selection: p.Selection, Traffic: p.Traffic, Load: p.Load, Seed: p.Seed,
		Accepted: r.Accepted, Saturated: r.Saturated, Dims: dims}, nil
}

var linkUseHeader = []string{"topology", "selection", "traffic", "load", "seed", "accepted", "saturated", "util_x", "util_y", "util_z"}

// WriteLinkUseCSV writes rows as CSV, sorted by topology, selection, traffic, load and
// seed; util_z is empty for 2D networks.
func WriteLinkUseCSV(w io.Writer, rows []LinkUse) error {
	rows = append([]LinkUse(nil), rows...)
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		switch {
		case a.Topology != b.Topology:
			return a.Topology < b.Topology
		case a.Selection != b.Selection:
			return a.Selection < b.Selection
		case a.Traffic != b.Traffic:
			return a.Traffic < b.Traffic
		case a.Load != b.Load:
			return a.Load < b.Load
		}
		return a.Seed < b.Seed
	})
	cw := csv.NewWriter(w)
	if err := cw.Write(linkUseHeader); err != nil {
		return err
	}
	for _, r := range rows {
		rec := []string{r.Topology, r.Selection, r.Traffic, strconv.FormatFloat(r.Load, 'g', -1, 64),
			strconv.FormatUint(r.Seed, 10), strconv.FormatFloat(r.Accepted, 'g', -1, 64), strconv.FormatBool(r.Saturated)}
		for d := 0; d < 3; d++ {
			v := ""
			if d < len(r.Dims) {
				v = strconv.FormatFloat(r.Dims[d], 'g', -1, 64)
			}
			rec = append(rec, v)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadLinkUseCSV reads what WriteLinkUseCSV wrote.
func ReadLinkUseCSV(r io.Reader) ([]LinkUse, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("link use: %w", err)
	}
	if len(recs) == 0 || len(recs[0]) != len(linkUseHeader) {
		return nil, fmt.Errorf("link use: want the header %v", linkUseHeader)
	}
	var out []LinkUse
	for i, rec := range recs[1:] {
		var u LinkUse
		var errs [5]error
		u.Topology, u.Selection, u.Traffic = rec[0], rec[1], rec[2]
		u.Load, errs[0] = strconv.ParseFloat(rec[3], 64)
		u.Seed, errs[1] = strconv.ParseUint(rec[4], 10, 64)
		u.Accepted, errs[2] = strconv.ParseFloat(rec[5], 64)
		u.Saturated, errs[3] = strconv.ParseBool(rec[6])
		for _, f := range rec[7:] {
			if f == "" {
				break
			}
			var v float64
			if v, errs[4] = strconv.ParseFloat(f, 64); errs[4] != nil {
				break
			}
			u.Dims = append(u.Dims, v)
		}
		for _, e := range errs {
			if e != nil {
				return nil, fmt.Errorf("link use: row %d: %w", i+2, e)
			}
		}
		out = append(out, u)
	}
	return out, nil
}

// StoredLinkUse reads the stored link use table (LinkUseFile).
func StoredLinkUse() ([]LinkUse, error) {
	b, err := datasets.Result(LinkUseFile)
	if err != nil {
		return nil, err
	}
	return ReadLinkUseCSV(bytes.NewReader(b))
}

// LinkUseAtSaturation summarises, for one topology (and traffic), the runs at the
// lowest offered load at which at least half of the replications saturated (the
// highest load when none did): that load, the accepted traffic and the utilisation of
// each dimension over the replications.
func LinkUseAtSaturation(rows []LinkUse, topology, traffic string) (load float64, accepted experiment.Estimate, dims []experiment.Estimate, err error) {
	byLoad := map[float64][]LinkUse{}
	var loads []float64
	for _, r := range rows {
		if r.Topology != topology || r.Traffic != traffic {
			continue
		}
		if _, ok := byLoad[r.Load]; !ok {
			loads = append(loads, r.Load)
		}
		byLoad[r.Load] = append(byLoad[r.Load], r)
	}
	if len(loads) == 0 {
		return 0, experiment.Estimate{}, nil, fmt.Errorf("link use: no run of %s under %s", topology, traffic)
	}
	sort.Float64s(loads)
	load = loads[len(loads)-1]
	for _, l := range loads {
		sat := 0
		for _, r := range byLoad[l] {
			if r.Saturated {
				sat++
			}
		}
		if 2*sat >= len(byLoad[l]) {
			load = l
			break
		}
	}
	runs := byLoad[load]
	var acc []float64
	per := make([][]float64, len(runs[0].Dims))
	for _, r := range runs {
		acc = append(acc, r.Accepted)
		for d := range per {
			v := math.NaN()
			if d < len(r.Dims) {
				v = r.Dims[d]
			}
			per[d] = append(per[d], v)
		}
	}
	for _, v := range per {
		dims = append(dims, experiment.Estimated(v))
	}
	return load, experiment.Estimated(acc), dims, nil
}
