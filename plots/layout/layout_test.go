package layout

import (
	"strings"
	"testing"
)

// TestSignificant: the precision rule counts the digits of a number with a fraction
// (trailing zeros included) and passes integers and text that is not a number.
func TestSignificant(t *testing.T) {
	for _, c := range []struct {
		s      string
		digits int
		ok     bool
	}{
		{"10.441334768568353", 17, true}, {"10.44", 4, true}, {"0.125", 3, true}, {"12.5 %", 3, true},
		{"-77.1", 3, true}, {"−0.0125", 3, true}, {"10.40", 4, true}, {"1.235e+05", 4, true},
		{"1,024.5", 5, true}, {"0.00", 0, true},
		{"1,024", 0, false}, {"300,000", 0, false}, {"-3", 0, false}, {"x = 0.1", 0, false},
		{"D", 0, false}, {"", 0, false}, {"0.1.2", 0, false}, {"twin:4x4x4/D", 0, false},
	} {
		if d, ok := Significant(c.s); d != c.digits || ok != c.ok {
			t.Errorf("Significant(%q) = %d, %v; want %d, %v", c.s, d, ok, c.digits, c.ok)
		}
	}
}

// TestCheck: each rule fires on the case it names, with the texts that break it,
// and not on text that only touches (within Tolerance).
func TestCheck(t *testing.T) {
	f := Figure{Title: "demo", Width: 100, Height: 50, Texts: []TextBox{
		{Text: "title wider than the figure", X: -20, Y: 0, W: 140, H: 12},
		{Text: "a", X: 10, Y: 20, W: 10, H: 10},
		{Text: "b", X: 15, Y: 25, W: 10, H: 10},   // over a
		{Text: "c", X: 25.5, Y: 20, W: 10, H: 10}, // touches b's right edge: fine
		{Text: "10.441334768568353", X: 50, Y: 38, W: 30, H: 10},
		{Text: "10.44", X: 50, Y: 26, W: 20, H: 10.5}, // crosses the line below by 0.5: fine
	}, Marks: []TextBox{{Text: "paper", X: 52, Y: 30, W: 10, H: 4}}}
	var got []string
	for _, p := range Check(f) {
		got = append(got, p.Kind+" "+p.Texts[0].Text+"|"+p.Texts[len(p.Texts)-1].Text)
		if !strings.HasPrefix(p.String(), "demo: "+p.Kind+": ") {
			t.Errorf("problem reads %q", p)
		}
	}
	want := []string{
		"clipped title wider than the figure|title wider than the figure",
		"overlap a|b",
		"covers mark 10.44|paper",
		"precision 10.441334768568353|10.441334768568353",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p := Check(Figure{Width: 10, Height: 10, Texts: []TextBox{{Text: "ok", X: -0.5, Y: 0, W: 10.9, H: 10}}}); len(p) != 0 {
		t.Errorf("a text within the tolerance of the edge: %v", p)
	}
}
