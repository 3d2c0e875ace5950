// Package layout holds the rules a figure's text must keep to be printed: no text
// clipped by the figure's edge, no text over other text or over a data mark, and no
// number written to more digits than it is known to. A figure is given as the boxes
// of its text (Figure); Check returns what breaks the rules (Problem).
//
// Both renderers are held to the same rules: package plots records the boxes
// gonum/plot draws for every static figure (plots.Figure.Problems, which the notebook
// kernel reports under a figure that breaks them), and kernel/browsertest reads the
// boxes ECharts lays out in the browser for every interactive chart.
package layout

import (
	"fmt"
	"math"
	"regexp"
	"strings"
)

// TextBox is one drawn text element (one line of it) and the box it occupies: X and Y
// are its top-left corner, W and H its size, in the figure's units (CSS pixels for a
// chart, points for a static figure) with Y growing downwards.
type TextBox struct {
	Text       string
	X, Y, W, H float64
}

func (b TextBox) String() string {
	return fmt.Sprintf("%q at (%.0f, %.0f) %.0f×%.0f", b.Text, b.X, b.Y, b.W, b.H)
}

// Figure is the text a figure draws: its title (to name it in a problem), its size
// and every visible text element; and its marks, what text must not cover: data
// symbols (a paper's value drawn beside a bar), each named by its series in Text, and
// a chart's toolbox ("toolbox": the icons a title once ran into).
type Figure struct {
	ID, Title     string
	Width, Height float64
	Texts         []TextBox
	Marks         []TextBox
}

// Tolerance is how far, in the figure's units, a text may cross the figure's
// edge or another text before it counts: a pixel, less than any visible cut.
const Tolerance = 1.0

// MaxSignificant is the most significant digits a number with a fractional part may
// be written with: our labels are rounded to four (plots' bar labels, tooltips), and a
// measured value's interval (a few % of it at 95 % confidence) supports no more, so a
// fifth digit is noise ("10.441334768568353" is a float64 printed raw). Integers
// (counts, "1,024", "300,000") are exact and pass at any length.
const MaxSignificant = 4

// Problem is one rule a figure breaks: Kind is "clipped" (text outside the figure),
// "overlap" (two texts cross), "covers mark" (a text over a data mark) or "precision"
// (a number with more than MaxSignificant significant digits), and Texts the text
// elements (and mark) concerned.
type Problem struct {
	Figure string // the figure's title, or its id when untitled
	Kind   string
	Texts  []TextBox
	Detail string
}

func (p Problem) String() string {
	var texts []string
	for _, t := range p.Texts {
		texts = append(texts, t.String())
	}
	return fmt.Sprintf("%s: %s: %s (%s)", p.Figure, p.Kind, strings.Join(texts, " and "), p.Detail)
}

// Check returns the problems of one figure's text, in the order its texts come:
//   - clipped: a box that crosses the figure's edge (0 to Width, 0 to Height) by more
//     than Tolerance: the reader sees part of it, or none;
//   - overlap: two boxes that cross by more than Tolerance both ways: the
//     reader cannot tell which words are whose (lines of one text count too: a line
//     height too small runs them together);
//   - covers mark: a text over a mark by more than Tolerance both ways;
//   - precision: a text that is a number (signs, thousands separators and a % unit
//     aside) with a fractional part and more than MaxSignificant significant digits.
func Check(f Figure) []Problem {
	name := f.Title
	if name == "" {
		name = f.ID
	}
	var out []Problem
	tol := Tolerance
	for _, t := range f.Texts {
		if t.X < -tol || t.Y < -tol || t.X+t.W > f.Width+tol || t.Y+t.H > f.Height+tol {
			out = append(out, Problem{Figure: name, Kind: "clipped", Texts: []TextBox{t},
				Detail: fmt.Sprintf("the figure is %.0f×%.0f", f.Width, f.Height)})
		}
	}
	for i, a := range f.Texts {
		for _, b := range f.Texts[i+1:] {
			if dx, dy := crossing(a, b); dx > tol && dy > tol {
				out = append(out, Problem{Figure: name, Kind: "overlap", Texts: []TextBox{a, b},
					Detail: fmt.Sprintf("they cross by %.1f×%.1f", dx, dy)})
			}
		}
	}
	for _, t := range f.Texts {
		for _, m := range f.Marks {
			if dx, dy := crossing(t, m); dx > tol && dy > tol {
				out = append(out, Problem{Figure: name, Kind: "covers mark", Texts: []TextBox{t, m},
					Detail: fmt.Sprintf("the text crosses %s's mark by %.1f×%.1f", m.Text, dx, dy)})
			}
		}
	}
	for _, t := range f.Texts {
		if n, ok := Significant(t.Text); ok && n > MaxSignificant {
			out = append(out, Problem{Figure: name, Kind: "precision", Texts: []TextBox{t},
				Detail: fmt.Sprintf("%d significant digits; a number with a fraction gets at most %d", n, MaxSignificant)})
		}
	}
	return out
}

// crossing is how far boxes a and b overlap along X and along Y (negative: apart).
func crossing(a, b TextBox) (dx, dy float64) {
	return math.Min(a.X+a.W, b.X+b.W) - math.Max(a.X, b.X), math.Min(a.Y+a.H, b.Y+b.H) - math.Max(a.Y, b.Y)
}

// number is a decimal number as figures write it, once signs, separators and units
// are gone: digits, an optional fraction, an optional exponent.
var number = regexp.MustCompile(`^([0-9]+)(?:\.([0-9]+))?(?:[eE][+-]?[0-9]+)?$`)

// Significant returns the significant digits of s when s is a number with a
// fractional part ("0.125": 3, "10.40": 4, "1.235e+05": 4), and ok false for an
// integer ("1,024") or a text that is not a number ("x = 0.1", "D"). A leading sign
// (+, -, −, ±), thousands separators (",", thin spaces) and a trailing "%" are not
// part of the number; trailing zeros of a fraction are (they claim precision).
func Significant(s string) (digits int, ok bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimSuffix(s, "%"))
	s = strings.TrimLeft(s, "+-−±")
	s = strings.NewReplacer(",", "", "\u2009", "", "\u202f", "").Replace(s)
	m := number.FindStringSubmatch(s)
	if m == nil || m[2] == "" {
		return 0, false
	}
	return len(strings.TrimLeft(m[1]+m[2], "0")), true
}
