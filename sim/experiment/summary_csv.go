package experiment

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ReadSummaryCSV reads what WriteSummaryCSV wrote, so that notebooks can load stored
// results of full runs without their records. Each metric's estimate gets the point's
// replication count as N (the file keeps one count per point).
func ReadSummaryCSV(r io.Reader) ([]Summary, error) {
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("read summary CSV: %w", err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("read summary CSV: no header")
	}
	head := rows[0]
	fixed := summaryLayout(head)
	if len(head) < len(fixed) || strings.Join(head[:len(fixed)], ",") != strings.Join(fixed, ",") || (len(head)-len(fixed))%4 != 0 {
		return nil, fmt.Errorf("read summary CSV: header %q is not a summary table (want %s, then four columns per metric)", strings.Join(head, ","), strings.Join(fixed, ","))
	}
	at := func(name string) int { return slices.Index(fixed, name) }
	var metrics []string
	for i := len(fixed); i < len(head); i += 4 {
		m := strings.TrimSuffix(head[i], "_mean")
		if head[i] != m+"_mean" || head[i+1] != m+"_sd" || head[i+2] != m+"_low" || head[i+3] != m+"_high" {
			return nil, fmt.Errorf("read summary CSV: columns %q do not describe one metric (want M_mean, M_sd, M_low, M_high)", strings.Join(head[i:i+4], ","))
		}
		metrics = append(metrics, m)
	}
	out := make([]Summary, 0, len(rows)-1)
	for li, row := range rows[1:] {
		line := li + 2
		num := func(col int) (float64, error) {
			v, err := strconv.ParseFloat(row[col], 64)
			if err != nil {
				return 0, fmt.Errorf("read summary CSV: line %d, %s: %q is not a number", line, head[col], row[col])
			}
			return v, nil
		}
		s := Summary{Curve: row[0], CurveKey: row[1], Estimates: map[string]Estimate{}}
		s.Point = Point{Topology: row[2], Routing: row[3], Deadlock: row[at("deadlock")], Tie: row[at("tie")], Traffic: row[at("traffic")], Sizes: row[at("sizes")]}
		if c := at("selection"); c >= 0 {
			s.Point.Selection = row[c]
		}
		if c := at("workload"); c >= 0 {
			s.Point.Workload, s.Point.Mapping = row[c], row[at("mapping")]
		}
		var err error
		if s.Load, err = num(at("load")); err != nil {
			return nil, err
		}
		s.Point.Load = s.Load
		n, err1 := strconv.Atoi(row[at("n")])
		sat, err2 := strconv.Atoi(row[at("saturated")])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("read summary CSV: line %d: n %q and saturated %q must be integers", line, row[at("n")], row[at("saturated")])
		}
		s.N, s.Saturated, s.Unchecked = n, sat, n // no stationarity columns: none checked
		if c := at("not_stationary"); c >= 0 {
			ns, err1 := strconv.Atoi(row[c])
			un, err2 := strconv.Atoi(row[at("unchecked")])
			if err1 != nil || err2 != nil || ns < 0 || un < 0 || ns+un > n {
				return nil, fmt.Errorf("read summary CSV: line %d: not_stationary %q and unchecked %q must be counts of at most n (%d) together", line, row[c], row[at("unchecked")], n)
			}
			s.NonStationary, s.Unchecked = ns, un
		}
		for i, m := range metrics {
			var e Estimate
			c := len(fixed) + 4*i
			for j, dst := range []*float64{&e.Mean, &e.SD, &e.Low, &e.High} {
				if *dst, err = num(c + j); err != nil {
					return nil, err
				}
			}
			e.N = n
			s.Estimates[m] = e
		}
		if d, ok := s.Estimates["deadlocked"]; ok && d.Mean > 0 {
			// The table has no count of its own: the deadlocked share times n.
			s.Deadlocked = max(1, int(math.Round(d.Mean*float64(n))))
		}
		out = append(out, s)
	}
	return out, nil
}

// summaryLayout is the summary table layout whose columns head begins with: today's
// (with workload and mapping for closed-loop tables), one without the stationarity
// columns (files written before the check existed: every replication unchecked), or
// one without the selection column either (files written before issue 11). When none
// matches it is today's open-loop layout, which the caller reports as the one wanted.
func summaryLayout(head []string) []string {
	for _, closed := range []bool{true, false} {
		for _, stationarity := range []bool{true, false} {
			for _, selection := range []bool{true, false} {
				if closed && !stationarity {
					continue // closed-loop tables never had them
				}
				cols := summaryColumns(closed)
				if !stationarity {
					cols = slices.DeleteFunc(cols, func(c string) bool { return c == "not_stationary" || c == "unchecked" })
				}
				if !selection {
					cols = slices.DeleteFunc(cols, func(c string) bool { return c == "selection" })
				}
				if len(head) >= len(cols) && slices.Equal(head[:len(cols)], cols) {
					return cols
				}
			}
		}
	}
	return summaryColumns(false)
}
