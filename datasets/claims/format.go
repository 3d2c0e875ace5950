package claims

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Formats of a value in a template ({name:format}) or a check's unit:
//
//	""     three decimals (0.411)
//	N      N decimals (0..6)
//	%, %N  a change in per cent with its sign (0.15 -> +15 %)
//	pct    a share in per cent, no sign (0.97 -> 97 %); pctN with N decimals
//	pp     a difference in percentage points (0.052 -> +5.2 pp); ppN
//	x      a ratio (1.68×); xN
//	±N     mean ± half-width of the 95 % interval, N decimals
//	int    an integer with thousands separators (1,047)
//	load   the offered load the value was read at
//
// Several values show as a range (lowest to highest) unless the format starts with
// "each " (label and value, in order) or "list " (values in order, separated by " / ").

var placeholderRE = regexp.MustCompile(`\{([A-Za-z][A-Za-z0-9_]*)(?::([^}]*))?\}`)

func placeholders(tmpl string) []string {
	var out []string
	for _, m := range placeholderRE.FindAllStringSubmatch(tmpl, -1) {
		out = append(out, m[1])
	}
	return out
}

// render fills a template's placeholders; an empty template gives def.
func (e *evaluator) render(tmpl, def string) (string, error) {
	if tmpl == "" {
		return def, nil
	}
	var err error
	out := placeholderRE.ReplaceAllStringFunc(tmpl, func(s string) string {
		m := placeholderRE.FindStringSubmatch(s)
		v, ok := e.values[m[1]]
		if !ok {
			err = fmt.Errorf("template %q: no quantity %q", tmpl, m[1])
			return s
		}
		if !validFormat(m[2]) {
			err = fmt.Errorf("template %q: unknown format %q", tmpl, m[2])
			return s
		}
		return format(v, m[2])
	})
	return out, err
}

var kindRE = regexp.MustCompile(`^(|[0-6]|%[0-6]?|pct[0-6]?|pp[0-6]?|x[0-6]?|±[0-6]|int|load)$`)

func validFormat(spec string) bool {
	spec = strings.TrimPrefix(strings.TrimPrefix(spec, "each "), "list ")
	return kindRE.MatchString(spec)
}

// format shows a value's items in a format (see above).
func format(v Value, spec string) string {
	mode := "range"
	for _, m := range []string{"each", "list"} {
		if rest, ok := strings.CutPrefix(spec, m+" "); ok {
			mode, spec = m, rest
		}
	}
	if len(v.Items) == 1 {
		if mode == "each" {
			return labelled(v.Items[0], spec)
		}
		return formatItem(v.Items[0], spec)
	}
	if spec == "load" && mode == "range" {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, it := range v.Items {
			lo, hi = math.Min(lo, it.Load), math.Max(hi, it.Load)
		}
		if lo == hi {
			return strconv.FormatFloat(lo, 'f', -1, 64)
		}
		return strconv.FormatFloat(lo, 'f', -1, 64) + "–" + strconv.FormatFloat(hi, 'f', -1, 64)
	}
	switch mode {
	case "each":
		var parts []string
		for _, it := range v.Items {
			parts = append(parts, labelled(it, spec))
		}
		return strings.Join(parts, ", ")
	case "list":
		var parts []string
		for _, it := range v.Items {
			parts = append(parts, formatItem(it, spec))
		}
		return strings.Join(parts, " / ")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, it := range v.Items {
		lo, hi = math.Min(lo, it.Mean), math.Max(hi, it.Mean)
	}
	if spec == "load" || strings.HasPrefix(spec, "±") {
		spec = ""
	}
	return formatRange(lo, hi, spec)
}

func labelled(it Item, spec string) string {
	if it.Label == "" {
		return formatItem(it, spec)
	}
	return it.Label + " " + formatItem(it, spec)
}

func formatItem(it Item, spec string) string {
	switch {
	case spec == "load":
		return strconv.FormatFloat(it.Load, 'f', -1, 64)
	case strings.HasPrefix(spec, "±"):
		d, _ := strconv.Atoi(strings.TrimPrefix(spec, "±"))
		if math.IsNaN(it.Low) || math.IsNaN(it.High) {
			return strconv.FormatFloat(it.Mean, 'f', d, 64)
		}
		return fmt.Sprintf("%.*f ± %.*f", d, it.Mean, d, (it.High-it.Low)/2)
	}
	return formatNumber(it.Mean, spec)
}

// kind splits a format into its kind and decimals (def when not given).
func kind(spec string) (k string, decimals int) {
	for _, p := range []struct {
		prefix string
		def    int
	}{{"pct", 0}, {"pp", 1}, {"%", 0}, {"x", 2}} {
		if rest, ok := strings.CutPrefix(spec, p.prefix); ok {
			d := p.def
			if rest != "" {
				d, _ = strconv.Atoi(rest)
			}
			return p.prefix, d
		}
	}
	if spec == "int" {
		return "int", 0
	}
	if d, err := strconv.Atoi(spec); err == nil {
		return "", d
	}
	return "", 3
}

func formatNumber(x float64, spec string) string {
	if math.IsNaN(x) {
		return "—"
	}
	k, d := kind(spec)
	switch k {
	case "%":
		return signed(100*x, d) + " %"
	case "pp":
		return signed(100*x, d) + " pp"
	}
	// Unsigned kinds: a minus sign (U+2212) when negative, and no −0.
	var s string
	switch k {
	case "pct":
		s = strconv.FormatFloat(100*math.Abs(x), 'f', d, 64) + " %"
	case "x":
		s = strconv.FormatFloat(math.Abs(x), 'f', d, 64) + "×"
	case "int":
		s = thousands(int64(math.Round(math.Abs(x))))
	default:
		s = strconv.FormatFloat(math.Abs(x), 'f', d, 64)
	}
	if x < 0 && strings.Trim(s, "0.,%× ") != "" {
		return "−" + s
	}
	return s
}

// signed writes a number with its sign (+ for positive, − for negative, none for 0).
func signed(x float64, d int) string {
	s := strconv.FormatFloat(math.Abs(x), 'f', d, 64)
	switch r := strconv.FormatFloat(x, 'f', d, 64); {
	case strings.Trim(s, "0.") == "":
		return s
	case r[0] == '-':
		return "−" + s
	}
	return "+" + s
}

func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// formatRange shows lo..hi in a format: one value when they show alike, "+15 to +27 %"
// for signed kinds, "16–25 %" otherwise. Infinite ends read "at least" and "at most".
func formatRange(lo, hi float64, spec string) string {
	if math.IsInf(hi, 1) && !math.IsInf(lo, 0) {
		return "≥ " + formatNumber(lo, spec)
	}
	if math.IsInf(lo, -1) && !math.IsInf(hi, 0) {
		return "≤ " + formatNumber(hi, spec)
	}
	a, b := formatNumber(lo, spec), formatNumber(hi, spec)
	if a == b {
		return a
	}
	k, _ := kind(spec)
	suffix := map[string]string{"%": " %", "pct": " %", "pp": " pp", "x": "×"}[k]
	a, b = strings.TrimSuffix(a, suffix), strings.TrimSuffix(b, suffix)
	if k == "%" || k == "pp" || lo < 0 {
		return a + " to " + b + suffix
	}
	return a + "–" + b + suffix
}
