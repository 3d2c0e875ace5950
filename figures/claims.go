package figures

import (
	"fmt"
	"math"
	"strings"

	"github.com/twintorus/twintorus/datasets"
)

// Claim is a paper's statement beside the value twintorus measured.
type Claim struct {
	Statement string // what the paper says, in a few words
	Paper     string // the paper's value, e.g. "10–23 %"
	Ours      string // the measured value
	Holds     string // "yes", "no", "partly", or "—" when not comparable
	Source    string // where the paper says it, e.g. "[TR] §7.3, line 1234"
}

// ClaimsTable lays claims out for kernel.Table.
func ClaimsTable(claims []Claim) (headers []string, rows [][]string) {
	headers = []string{"paper", "paper's value", "twintorus", "holds", "source"}
	for _, c := range claims {
		rows = append(rows, []string{c.Statement, c.Paper, c.Ours, c.Holds, c.Source})
	}
	return headers, rows
}

// PaperValue formats a reference's value: a number, or a range "low–high".
func PaperValue(r datasets.Reference) string {
	unit := r.Unit
	if unit == "%" {
		unit = " %"
	} else if unit != "" {
		unit = " " + unit
	}
	switch {
	case !math.IsNaN(r.Low) && !math.IsNaN(r.High):
		return fmt.Sprintf("%g–%g%s", r.Low, r.High, unit)
	case !math.IsNaN(r.Value):
		return fmt.Sprintf("%g%s", r.Value, unit)
	}
	return strings.TrimSpace(r.Quote)
}

// Source cites a reference: "[TR] Table 7, line 1234".
func Source(r datasets.Reference) string {
	return fmt.Sprintf("%s %s, %s line %d", r.Source, r.Where, shortFile(r.File), r.Line)
}

func shortFile(f string) string {
	if i := strings.IndexByte(f, '_'); i > 0 {
		return "seed " + f[:i]
	}
	return f
}

// Verdict is "yes" when v lies in [lo, hi], "no" otherwise.
func Verdict(v, lo, hi float64) string {
	if v >= lo && v <= hi {
		return "yes"
	}
	return "no"
}

// Percent formats a ratio as a percentage change, e.g. 1.23 -> "+23 %".
func Percent(ratio float64) string { return fmt.Sprintf("%+.0f %%", 100*(ratio-1)) }
