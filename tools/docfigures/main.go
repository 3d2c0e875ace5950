// Command docfigures draws the figures of the README and docs/figures, one of each
// kind of static figure the plots package makes, from the stored full runs in
// datasets/results (never from a quick run), the exact analysis, and, for the
// utilisation heatmap, ten fixed-seed simulations:
//
//	go run ./tools/docfigures [-out docs/figures]
//
// Run it after the stored results or the plots package change (make docfigures), and
// look at every file before committing it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/twintorus/twintorus/datasets"
	"github.com/twintorus/twintorus/figures"
	"github.com/twintorus/twintorus/plots"
	"github.com/twintorus/twintorus/sim/analysis"
	"github.com/twintorus/twintorus/sim/experiment"
	"github.com/twintorus/twintorus/sim/routing"
	"github.com/twintorus/twintorus/sim/topology"
)

func main() {
	out := flag.String("out", filepath.Join("docs", "figures"), "directory for the figures")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "docfigures:", err)
		os.Exit(1)
	}
	for _, f := range []struct {
		name string
		draw func() (*plots.Figure, error)
		// formats besides PNG
		also []string
	}{
		{"3dt-configurations-128", latency128, []string{"svg", "pdf"}},
		{"3dt-vs-2d-1024-throughput", throughput1024, nil},
		{"crossing-paths-4x4x4", crossingPaths, nil},
		{"internal-link-utilisation", utilisation, nil},
	} {
		fig, err := f.draw()
		if err == nil {
			for _, ext := range append([]string{"png"}, f.also...) {
				if err = fig.Save(filepath.Join(*out, f.name+"."+ext), 600, 340); err != nil {
					break
				}
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "docfigures: %s: %v\n", f.name, err)
			os.Exit(1)
		}
	}
}

// latency128 is the README's figure: the ten configurations at 128 PEs.
func latency128() (*plots.Figure, error) {
	res, err := figures.LoadResults(context.Background(), "3dt-configurations", figures.Stored, nil)
	if err != nil {
		return nil, err
	}
	lp, err := figures.Latency(res, figures.Deadlock("bubble"), figures.Only(func(s experiment.Summary) bool {
		return strings.Contains(s.Point.Topology, "4x4x4") || s.Point.Topology == "torus:16x8"
	}), figures.Title("3DT 4x4x4 (128 PEs), the ten configurations, uniform traffic, bubble"))
	if err != nil {
		return nil, err
	}
	return lp.Figure()
}

// throughput1024 is accepted against offered traffic at 1024 PEs, both schemes, the
// VC curves taken deep into saturation.
func throughput1024() (*plots.Figure, error) {
	res, err := figures.LoadJoined(context.Background(), figures.Stored, nil, "3dt-vs-2d", "3dt-vs-2d-deep")
	if err != nil {
		return nil, err
	}
	lp, err := figures.Throughput(res, figures.Topologies("twin:8x8x8/D", "torus:32x32"),
		figures.Names(func(p experiment.Point) string { return figures.Shape(p.Topology) + " " + figures.Scheme(p.Deadlock) }),
		figures.Title("1024 PEs, uniform traffic: accepted against offered traffic"))
	if err != nil {
		return nil, err
	}
	return lp.Figure()
}

// crossingPaths is a bar chart: DOR transit paths crossing the internal link at each
// node of the 4x4x4 twin torus, by configuration, with the report's Table 8 as marks.
func crossingPaths() (*plots.Figure, error) {
	tr, err := analysis.TransitByEnumeration([]int{4, 4, 4}, routing.TiePlus)
	if err != nil {
		return nil, err
	}
	var cats []string
	var ours, paper []float64
	for l := byte('A'); l <= 'J'; l++ {
		cfg, err := topology.Letter(l)
		if err != nil {
			return nil, err
		}
		ref, err := datasets.Lookup(fmt.Sprintf("tr-table8-%c-k4", l))
		if err != nil {
			return nil, err
		}
		cats = append(cats, string(l))
		ours = append(ours, float64(tr.Crossing(cfg)))
		paper = append(paper, ref.Value)
	}
	return plots.BarPlot{Options: plots.Options{
		Title:  fmt.Sprintf("4x4x4: transit paths crossing the internal link (of %d per node)", tr.Total()),
		XLabel: "configuration", YLabel: "paths per node"},
		Categories: cats, Labels: true,
		Groups: []plots.BarGroup{{Name: "twintorus (enumeration)", Values: ours}, {Name: "[TR] Table 8", Values: paper, Marker: true}},
	}.Figure()
}

// utilisation is a heatmap of the mean utilisation of each configuration's channels at
// an offered load of 0.3 (A saturated, the others not): external ports of each card
// and the internal link in each direction. One simulation each, seed 1.
func utilisation() (*plots.Figure, error) {
	cols := []string{"card 0 external", "internal 0→1", "internal 1→0", "card 1 external"}
	var rows [][]float64
	var names []string
	for l := byte('A'); l <= 'J'; l++ {
		spec := fmt.Sprintf("twin:4x4x4/%c", l)
		p := experiment.NewPoint(spec, 0.3)
		p.Channels = true
		r, err := p.Run(context.Background())
		if err != nil {
			return nil, err
		}
		net, err := topology.New(spec)
		if err != nil {
			return nil, err
		}
		var sum [4]float64
		var n [4]int
		for s := 0; s < net.Switches(); s++ {
			card := net.Card(s)
			for port := 0; port < net.Ports(s); port++ {
				name := net.Port(s, port).Name(net.Dims())
				col := -1
				switch {
				case name == "int":
					col = 1 + card
				case name != "pe":
					col = 3 * card
				}
				if col >= 0 {
					sum[col] += r.ChannelUtil[net.PortID(s, port)]
					n[col]++
				}
			}
		}
		row := make([]float64, len(cols))
		for i := range row {
			row[i] = sum[i] / float64(n[i])
		}
		rows = append(rows, row)
		names = append(names, string(l))
	}
	// Row 0 is drawn at the bottom: put A at the top.
	for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
		rows[i], rows[j] = rows[j], rows[i]
		names[i], names[j] = names[j], names[i]
	}
	return plots.HeatmapPlot{Options: plots.Options{
		Title: "4x4x4, offered 0.3: mean channel utilisation", XLabel: "channels", YLabel: "configuration"},
		Values: rows, XTicks: cols, YTicks: names, ColorLabel: "flits/cycle", Min: 0, Max: 1,
	}.Figure()
}
