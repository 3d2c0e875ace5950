package claims

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/datasets"
)

// checkOut is one check's verdict, the measured value as shown, and a note.
type checkOut struct {
	verdict Verdict
	text    string
	note    string
}

// resolveRange sets a within check's range from its reference row: value or low–high,
// times the scale (0.01 for a unit of %, 1 otherwise, unless the check gives one),
// negated if asked.
func (e *evaluator) resolveRange(c *Check, refs []datasets.Reference) error {
	if c.Ref == "" {
		return nil
	}
	var ref datasets.Reference
	if c.Ref == "*" {
		if len(refs) == 0 {
			return fmt.Errorf("within: ref, but the claim has no refs")
		}
		ref = refs[0]
	} else {
		var err error
		if ref, err = datasets.Lookup(c.Ref); err != nil {
			return err
		}
	}
	scale := c.refScale
	if math.IsNaN(scale) {
		scale = 1
		if ref.Unit == "%" || strings.HasPrefix(ref.Unit, "% ") {
			scale = 0.01
		}
	}
	switch {
	case ref.HasRange():
		c.Lo, c.Hi = ref.Low*scale, ref.High*scale
	case ref.HasValue():
		c.Lo, c.Hi = ref.Value*scale, ref.Value*scale
	default:
		return fmt.Errorf("within: reference %s has no value", ref.ID)
	}
	if c.refNegate {
		c.Lo, c.Hi = -c.Hi, -c.Lo
	}
	return nil
}

func (e *evaluator) check(c *Check) (checkOut, error) {
	switch c.Kind {
	case "test":
		if c.TestVerdict != Holds {
			return checkOut{verdict: c.TestVerdict, text: fmt.Sprintf("asserted by %s (%s)", c.TestName, c.TestFile), note: c.TestNote}, nil
		}
		return checkOut{verdict: Holds, text: fmt.Sprintf("as printed, asserted by %s (%s)", c.TestName, c.TestFile)}, nil
	case "within":
		if len(c.Readings) > 0 {
			return e.readings(c)
		}
		v, err := e.value(c.Of)
		if err != nil {
			return checkOut{}, err
		}
		return within(c, v), nil
	case "sign":
		v, err := e.value(c.Of)
		if err != nil {
			return checkOut{}, err
		}
		n := 0
		for _, it := range v.Items {
			if it.Mean*float64(c.Sign) > 0 {
				n++
			}
		}
		return checkOut{verdict: count(n, len(v.Items), c.Partly), text: format(v, c.Unit)}, nil
	case "order":
		return e.order(c)
	case "above":
		return e.above(c)
	case "match":
		return e.match(c)
	}
	return checkOut{}, fmt.Errorf("unknown check %q", c.Kind)
}

// count is the verdict of n of total values holding: holds when all, partly when some
// (unless partly is never), does not hold when none.
func count(n, total int, partly string) Verdict {
	switch {
	case n == total:
		return Holds
	case n > 0 && partly != "never":
		return Partly
	}
	return DoesNotHold
}

// bounds is a within check's range widened by its tolerances.
func (c *Check) bounds() (lo, hi float64) {
	lo, hi = c.Lo, c.Hi
	if !math.IsInf(lo, 0) {
		lo -= c.Tol + c.RelTol*math.Abs(lo)
	}
	if !math.IsInf(hi, 0) {
		hi += c.Tol + c.RelTol*math.Abs(hi)
	}
	return lo, hi
}

func within(c *Check, v Value) checkOut {
	lo, hi := c.bounds()
	n, sameSign := 0, true
	mid := (c.Lo + c.Hi) / 2
	vmin, vmax := math.Inf(1), math.Inf(-1)
	for _, it := range v.Items {
		if it.Mean >= lo && it.Mean <= hi {
			n++
		}
		if it.Mean*mid <= 0 {
			sameSign = false
		}
		vmin, vmax = math.Min(vmin, it.Mean), math.Max(vmax, it.Mean)
	}
	out := checkOut{verdict: count(n, len(v.Items), c.Partly), text: format(v, c.Unit)}
	if out.verdict == DoesNotHold {
		switch c.Partly {
		case "sign":
			if sameSign && mid != 0 {
				out.verdict = Partly
			}
		case "overlap":
			if vmax >= lo && vmin <= hi {
				out.verdict = Partly
			}
		}
	}
	if out.verdict == Partly && c.Partly == "sign" && n == 0 {
		out.note = "same sign, not the size"
	}
	return out
}

// readings judges each reading of a "%" with the same range and keeps the best:
// which reading fits is the note.
func (e *evaluator) readings(c *Check) (checkOut, error) {
	best := checkOut{verdict: NotRun}
	var texts, fits []string
	for _, rd := range c.Readings {
		v, err := e.value(rd.of)
		if err != nil {
			return checkOut{}, err
		}
		unit := c.Unit
		if rd.name == "points" {
			unit = "pp" + strings.TrimLeft(unit, "%pctx")
		}
		out := within(c, v)
		texts = append(texts, fmt.Sprintf("%s %s: %s", rd.name, format(v, unit), out.verdict))
		if out.verdict > best.verdict {
			best.verdict = out.verdict
			fits = []string{readingName(rd.name)}
		} else if out.verdict == best.verdict {
			fits = append(fits, readingName(rd.name))
		}
	}
	best.text = strings.Join(texts, "; ")
	switch {
	case best.verdict == DoesNotHold:
		best.note = "neither reading fits: " + best.text
	case len(fits) == len(c.Readings):
		best.note = "both readings fit alike: " + best.text
	default:
		best.note = "the " + fits[0] + " reading fits: " + best.text
	}
	return best, nil
}

func readingName(r string) string {
	if r == "points" {
		return "percentage-points"
	}
	return "relative"
}

// order judges "a > b >= c ...": a pair against its relation is a reversal when the
// 95 % confidence intervals do not overlap, noise when they do. Any reversal: does not
// hold; only noise: partly; none: holds. >= and <= also accept pairs within noise.
func (e *evaluator) order(c *Check) (checkOut, error) {
	var items []Item
	var names []string
	for _, t := range c.Order {
		v, err := e.value(t.name)
		if err != nil {
			return checkOut{}, err
		}
		if len(v.Items) != 1 {
			return checkOut{}, fmt.Errorf("order: %s has %d values, want one (take its min, max or mean)", t.name, len(v.Items))
		}
		items = append(items, v.Items[0])
		names = append(names, v.Display)
	}
	reversed, noise := 0, 0
	var b strings.Builder
	for i, it := range items {
		fmt.Fprintf(&b, "%s %s", names[i], formatNumber(it.Mean, c.Unit))
		if i+1 == len(items) {
			break
		}
		next := items[i+1]
		rel := c.Order[i].rel
		greater := rel[0] == '>'
		ok := it.Mean > next.Mean
		if !greater {
			ok = it.Mean < next.Mean
		}
		overlap := !(it.High < next.Low || next.High < it.Low) && !math.IsNaN(it.Low) && !math.IsNaN(next.Low)
		shown := map[bool]string{true: ">", false: "<"}[it.Mean > next.Mean]
		if it.Mean == next.Mean {
			shown = "="
		}
		switch {
		case ok:
		case overlap && strings.HasSuffix(rel, "="):
			shown = "≈"
		case overlap:
			shown = "≈"
			noise++
		default:
			reversed++
		}
		fmt.Fprintf(&b, " %s ", shown)
	}
	v := Holds
	switch {
	case reversed > 0:
		v = DoesNotHold
	case noise > 0:
		v = Partly
	}
	out := checkOut{verdict: v, text: b.String()}
	if v == Partly {
		out.note = "against the order only within the 95 % intervals"
	}
	return out, nil
}

// above judges whether every value of one set is above every value of another.
func (e *evaluator) above(c *Check) (checkOut, error) {
	a, err := e.value(c.Above[0])
	if err != nil {
		return checkOut{}, err
	}
	b, err := e.value(c.Above[1])
	if err != nil {
		return checkOut{}, err
	}
	top := b.Items[0]
	for _, it := range b.Items[1:] {
		if it.Mean > top.Mean {
			top = it
		}
	}
	n := 0
	var below []string
	for _, it := range a.Items {
		if it.Mean > top.Mean {
			n++
		} else {
			below = append(below, labelled(it, c.Unit))
		}
	}
	text := fmt.Sprintf("%d of %d %s above the highest %s (%s)", n, len(a.Items), a.Display, b.Display, labelled(top, c.Unit))
	if len(below) > 0 {
		text += "; not: " + strings.Join(below, ", ")
	}
	return checkOut{verdict: count(n, len(a.Items), c.Partly), text: text}, nil
}

// paperText is the paper's value of a check, when the claim does not give it.
func (e *evaluator) paperText(c *Check) (string, error) {
	switch c.Kind {
	case "within":
		return formatRange(c.Lo, c.Hi, c.Unit), nil
	case "sign":
		return map[int]string{1: "positive", -1: "negative"}[c.Sign], nil
	case "order":
		var parts []string
		for _, t := range c.Order {
			v, err := e.value(t.name)
			if err != nil {
				return "", err
			}
			parts = append(parts, v.Display)
			if t.rel != "" {
				parts = append(parts, t.rel)
			}
		}
		return strings.Join(parts, " "), nil
	case "above":
		a, _ := e.value(c.Above[0])
		b, _ := e.value(c.Above[1])
		return fmt.Sprintf("every %s above every %s", a.Display, b.Display), nil
	}
	return "", fmt.Errorf("claim has no paper text: give paper")
}

// evidence names what a diagnosis rests on: the sources of the quantities its check
// and its text read, and its test.
func (e *evaluator) evidence(d *Diagnosis) string {
	var names []string
	names = append(names, d.When.Of, d.When.Above[0], d.When.Above[1])
	for _, t := range d.When.Order {
		names = append(names, t.name)
	}
	for _, ph := range placeholders(d.Text) {
		names = append(names, ph)
	}
	var srcs []string
	for _, n := range names {
		if v, ok := e.values[n]; ok {
			srcs = union(srcs, v.Sources)
		}
	}
	if d.TestName != "" {
		srcs = append(srcs, fmt.Sprintf("%s (%s)", d.TestName, d.TestFile))
	}
	return strings.Join(srcs, "; ")
}

// match compares ours with the paper's value for value (in order): holds when every
// value is within the tolerance of the paper's, partly when every one at least has
// the paper's sign, does not hold when a sign differs.
func (e *evaluator) match(c *Check) (checkOut, error) {
	ours, err := e.value(c.Match[0])
	if err != nil {
		return checkOut{}, err
	}
	paper, err := e.value(c.Match[1])
	if err != nil {
		return checkOut{}, err
	}
	if len(ours.Items) != len(paper.Items) {
		return checkOut{}, fmt.Errorf("match: %s has %d values, %s %d", c.Match[0], len(ours.Items), c.Match[1], len(paper.Items))
	}
	close, same := 0, 0
	var against []string
	for i, o := range ours.Items {
		p := paper.Items[i].Mean
		if math.Abs(o.Mean-p) <= c.Tol+c.RelTol*math.Abs(p) {
			close++
		}
		if o.Mean*p > 0 {
			same++
		} else {
			against = append(against, labelled(o, c.Unit))
		}
	}
	text := format(ours, c.Unit)
	if len(against) > 0 {
		text += "; sign against the paper: " + strings.Join(against, ", ")
	}
	out := checkOut{text: text}
	switch {
	case close == len(ours.Items):
		out.verdict = Holds
	case same == len(ours.Items):
		out.verdict = Partly
		out.note = fmt.Sprintf("%d of %d within %s of the paper's, all of its sign", close, len(ours.Items), tolText(c.Tol, c.RelTol, c.Unit))
	default:
		out.verdict = DoesNotHold
		out.note = fmt.Sprintf("%d of %d within %s of the paper's, %d of its sign", close, len(ours.Items), tolText(c.Tol, c.RelTol, c.Unit), same)
	}
	return out, nil
}

// tolText is how a tolerance is written: in points for per cent units, in per cent
// when relative.
func tolText(tol, rel float64, unit string) string {
	if rel > 0 && tol == 0 {
		return strconv.FormatFloat(math.Round(1e6*rel)/1e4, 'f', -1, 64) + " %"
	}
	if k, _ := kind(unit); k == "%" || k == "pct" || k == "pp" {
		return strconv.FormatFloat(math.Round(1e6*tol)/1e4, 'f', -1, 64) + " points"
	}
	return formatNumber(tol, unit)
}
