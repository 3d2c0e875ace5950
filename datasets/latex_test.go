package datasets

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// evalLaTeX evaluates the small LaTeX subset the report's formulas use:
// numbers, one-letter variables, + - \times * /, ^ (with a braced or
// one-token exponent), \frac{a}{b}, parentheses and braces, and implicit
// multiplication ("3k^4", "\frac{1}{4}(k^4 - 1)").
func evalLaTeX(src string, vars map[string]float64) (float64, error) {
	toks, err := lexLaTeX(src)
	if err != nil {
		return 0, err
	}
	p := &latexParser{toks: toks, vars: vars}
	v, err := p.expr()
	if err == nil && p.pos < len(p.toks) {
		err = fmt.Errorf("unexpected %q", p.toks[p.pos])
	}
	if err != nil {
		return 0, fmt.Errorf("%q: %w", src, err)
	}
	return v, nil
}

func lexLaTeX(s string) ([]string, error) {
	var toks []string
	rs := []rune(s)
	for i := 0; i < len(rs); {
		c := rs[i]
		switch {
		case unicode.IsSpace(c):
			i++
		case unicode.IsDigit(c) || c == '.':
			j := i
			for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.') {
				j++
			}
			toks, i = append(toks, string(rs[i:j])), j
		case c == '\\':
			j := i + 1
			for j < len(rs) && unicode.IsLetter(rs[j]) {
				j++
			}
			switch cmd := string(rs[i:j]); cmd {
			case `\left`, `\right`: // sizing only
			case `\frac`, `\times`, `\cdot`:
				toks = append(toks, cmd)
			default:
				return nil, fmt.Errorf("unsupported command %s", cmd)
			}
			i = j
		case unicode.IsLetter(c) || strings.ContainsRune("+-*/^(){}", c):
			toks, i = append(toks, string(c)), i+1
		default:
			return nil, fmt.Errorf("unexpected character %q", c)
		}
	}
	return toks, nil
}

type latexParser struct {
	toks []string
	pos  int
	vars map[string]float64
}

func (p *latexParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *latexParser) next() string { t := p.peek(); p.pos++; return t }

func (p *latexParser) expect(t string) error {
	if got := p.next(); got != t {
		return fmt.Errorf("want %q, got %q", t, got)
	}
	return nil
}

func (p *latexParser) expr() (float64, error) {
	v, err := p.term()
	for err == nil && (p.peek() == "+" || p.peek() == "-") {
		op := p.next()
		var w float64
		if w, err = p.term(); op == "+" {
			v += w
		} else {
			v -= w
		}
	}
	return v, err
}

func (p *latexParser) term() (float64, error) {
	v, err := p.unary()
	for err == nil {
		t := p.peek()
		var w float64
		switch {
		case t == `\times` || t == `\cdot` || t == "*" || t == "/":
			p.next()
			if w, err = p.unary(); t == "/" {
				v /= w
			} else {
				v *= w
			}
		case t == "(" || t == "{" || t == `\frac` || startsOperand(t):
			w, err = p.power()
			v *= w
		default:
			return v, nil
		}
	}
	return v, err
}

func startsOperand(t string) bool {
	r := []rune(t)
	return len(r) > 0 && (unicode.IsDigit(r[0]) || r[0] == '.' || unicode.IsLetter(r[0]))
}

func (p *latexParser) unary() (float64, error) {
	if p.peek() == "-" || p.peek() == "+" {
		sign := 1.0
		if p.next() == "-" {
			sign = -1
		}
		v, err := p.unary()
		return sign * v, err
	}
	return p.power()
}

func (p *latexParser) power() (float64, error) {
	base, err := p.atom()
	if err != nil || p.peek() != "^" {
		return base, err
	}
	p.next()
	exp, err := p.atom()
	return math.Pow(base, exp), err
}

func (p *latexParser) atom() (float64, error) {
	switch t := p.next(); {
	case t == "(" || t == "{":
		v, err := p.expr()
		if err != nil {
			return 0, err
		}
		closing := map[string]string{"(": ")", "{": "}"}[t]
		return v, p.expect(closing)
	case t == `\frac`:
		num, err := p.atom()
		if err != nil {
			return 0, err
		}
		den, err := p.atom()
		return num / den, err
	case startsOperand(t) && unicode.IsLetter([]rune(t)[0]):
		v, ok := p.vars[t]
		if !ok {
			return 0, fmt.Errorf("unknown variable %q", t)
		}
		return v, nil
	case startsOperand(t):
		return strconv.ParseFloat(t, 64)
	default:
		return 0, fmt.Errorf("unexpected %q", t)
	}
}

func TestEvalLaTeX(t *testing.T) {
	vars := map[string]float64{"k": 4, "w": 2}
	for src, want := range map[string]float64{
		`\frac{1}{4}(3k^4 - 8k^3 + 6k^2 + 4k + 4)`: 93,
		`\frac{1}{4}(k^4 - 4k^2 + 4)`:              49,
		`3 \times 2^{\frac{3w}{2}-1}`:              12,
		`2^{\frac{3w+1}{2}-1}`:                     4 * math.Sqrt2,
		`2^{w+1}`:                                  8,
		`2^w`:                                      4,
		`-k^2 + (k - 1)(k + 1)`:                    -1,
		`\frac{k}{2}\frac{k}{2}`:                   4,
	} {
		got, err := evalLaTeX(src, vars)
		if err != nil || math.Abs(got-want) > 1e-12 {
			t.Errorf("evalLaTeX(%q) = %v, %v; want %v", src, got, err, want)
		}
	}
	for _, bad := range []string{`\sqrt{k}`, `k +`, `(k`, `q`, `k # 2`, `\frac{1}`} {
		if v, err := evalLaTeX(bad, vars); err == nil {
			t.Errorf("evalLaTeX(%q) = %v, want an error", bad, v)
		}
	}
}
