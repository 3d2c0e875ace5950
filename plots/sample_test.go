package plots

import "math"

// Sample data shaped like the papers' results, shared by tests and examples.

// latencyCurves: network latency against accepted traffic, with 95 % CIs.
func latencyCurves() []Series {
	mk := func(name string, sat float64) Series {
		s := Series{Name: name}
		for _, load := range []float64{0.05, 0.1, 0.15, 0.2, 0.25, 0.3} {
			acc := math.Min(load, sat)
			lat := 20 + 4/(1.02-acc/sat)
			ci := 0.02 * lat * (1 + 5*acc)
			s.Points = append(s.Points, Point{
				X: acc, Y: lat,
				XLow: acc - 0.003, XHigh: acc + 0.003,
				YLow: lat - ci, YHigh: lat + ci,
			})
		}
		return s
	}
	a, d := mk("A", 0.22), mk("D", 0.28)
	noCI := mk("2D torus", 0.2)
	for i := range noCI.Points {
		p := &noCI.Points[i]
		p.XLow, p.XHigh, p.YLow, p.YHigh = math.NaN(), math.NaN(), 0, 0
	}
	return []Series{a, d, noCI}
}

// acceptedCurves: accepted traffic against offered load for A–J.
func acceptedCurves() []Series {
	var out []Series
	for i, name := range []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"} {
		sat := 0.18 + 0.01*float64(i)
		s := Series{Name: name}
		for _, load := range []float64{0.05, 0.1, 0.15, 0.2, 0.25, 0.3} {
			s.Points = append(s.Points, Point{X: load, Y: math.Min(load, sat) - 0.002*float64(i)})
		}
		out = append(out, s)
	}
	return out
}

// pathCounts: paths crossing the internal link per configuration, k = 4,
// ours and a paper's (the paper gives only some).
func pathCounts() BarPlot {
	nan := math.NaN()
	return BarPlot{
		Options:    Options{Title: "Paths crossing the internal link (k = 4)", XLabel: "configuration", YLabel: "paths"},
		Categories: []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"},
		Groups: []BarGroup{
			{Name: "ours", Values: []float64{93, 79, 49, 33, 81, 77, 41, 45, 49, 45}},
			{Name: "paper", Values: []float64{93, 79, 49, nan, nan, nan, nan, nan, nan, nan}, Marker: true},
		},
		Labels: true,
	}
}

// utilisation: a 4×4 plane of channel utilisation, busiest in the middle.
func utilisation() HeatmapPlot {
	v := make([][]float64, 4)
	for y := range v {
		v[y] = make([]float64, 4)
		for x := range v[y] {
			v[y][x] = 0.3 + 0.15*float64(x%3) + 0.1*float64(y)
		}
	}
	return HeatmapPlot{
		Options:    Options{Title: "Channel utilisation, plane z = 0", XLabel: "x", YLabel: "y"},
		Values:     v,
		ColorLabel: "utilisation",
		Min:        0,
		Max:        1,
	}
}

// hollowCurves: accepted traffic against offered load whose last two points are
// flagged (drawn hollow), as a run whose throughput had not settled.
func hollowCurves() []Series {
	out := acceptedCurves()[:3]
	for i := range out {
		pts := append([]Point(nil), out[i].Points...)
		for j := len(pts) - 2; j < len(pts) && i < 2; j++ {
			pts[j].Hollow = true
		}
		out[i].Points = pts
	}
	return out
}
