package topology

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// MaxTwinDims is the largest n for which twin tori are built and configurations enumerated.
const MaxTwinDims = 8

// Config is the set of external ports on Card0 of an nDT node, as a bit set over the
// 2n ports: bit 2d is d+ and bit 2d+1 is d-. Card1 holds the other n ports.
type Config uint16

// PortBit is the bit of port (d, dir) in a Config.
func PortBit(d, dir int) Config { return 1 << (2*d + dirIndex(dir)) }

// Has reports whether port (d, dir) is on Card0.
func (c Config) Has(d, dir int) bool { return c&PortBit(d, dir) != 0 }

// Card is the card (0 or 1) holding port (d, dir).
func (c Config) Card(d, dir int) int {
	if c.Has(d, dir) {
		return 0
	}
	return 1
}

// Size is the number of ports on Card0.
func (c Config) Size() int { return bits.OnesCount16(uint16(c)) }

// Mirror swaps the two cards.
func (c Config) Mirror(n int) Config { return ^c & (1<<(2*n) - 1) }

// Canonical is the member of {c, c.Mirror(n)} that has d0+ on Card0: configurations
// that differ only by swapping the cards are the same configuration.
func (c Config) Canonical(n int) Config {
	if c.Has(0, +1) {
		return c
	}
	return c.Mirror(n)
}

// Split lists the dimensions whose two ports sit on different cards.
func (c Config) Split(n int) []int {
	var s []int
	for d := 0; d < n; d++ {
		if c.Has(d, +1) != c.Has(d, -1) {
			s = append(s, d)
		}
	}
	return s
}

// Ports lists Card0's ports in canonical port order (d0+, d0-, d1+, ...), formatted
// for an n-dimensional network, e.g. "x+,x-,y+".
func (c Config) Ports(n int) string {
	var parts []string
	for b := 0; b < 2*n; b++ {
		if c&(1<<b) != 0 {
			parts = append(parts, DimPortName(b/2, 1-2*(b%2), n))
		}
	}
	return strings.Join(parts, ",")
}

// Name is the configuration's canonical name: the letter A–J for n = 3, else the
// canonical Card0 port list (with d0+ on Card0).
func (c Config) Name(n int) string {
	c = c.Canonical(n)
	if n == 3 {
		for i, l := range letterConfigs {
			if l == c {
				return string(rune('A' + i))
			}
		}
	}
	return c.Ports(n)
}

// DimPortName names port (d, dir) of an n-dimensional network: x, y, z for n ≤ 3,
// d0, d1, ... otherwise, followed by + or -.
func DimPortName(d, dir, n int) string {
	sign := "+"
	if dir < 0 {
		sign = "-"
	}
	if n <= 3 && d < 3 {
		return string("xyz"[d]) + sign
	}
	return "d" + strconv.Itoa(d) + sign
}

// letterConfigs are configurations A–J of the 3DT papers (Table 1 of the technical
// report): Card0's ports, always including X+.
var letterConfigs = [10]Config{
	mk(0, 1, 1, 1, 2, 1),   // A {X+,Y+,Z+}
	mk(0, 1, 1, 1, 2, -1),  // B {X+,Y+,Z-}
	mk(0, 1, 1, 1, 1, -1),  // C {X+,Y+,Y-}
	mk(0, 1, 1, 1, 0, -1),  // D {X+,Y+,X-}
	mk(0, 1, 1, -1, 2, 1),  // E {X+,Y-,Z+}
	mk(0, 1, 1, -1, 2, -1), // F {X+,Y-,Z-}
	mk(0, 1, 1, -1, 0, -1), // G {X+,Y-,X-}
	mk(0, 1, 2, 1, 2, -1),  // H {X+,Z+,Z-}
	mk(0, 1, 2, 1, 0, -1),  // I {X+,Z+,X-}
	mk(0, 1, 2, -1, 0, -1), // J {X+,Z-,X-}
}

func mk(dd ...int) Config {
	var c Config
	for i := 0; i < len(dd); i += 2 {
		c |= PortBit(dd[i], dd[i+1])
	}
	return c
}

// Letter returns configuration A–J of the 3DT papers.
func Letter(l byte) (Config, error) {
	if l >= 'a' && l <= 'j' {
		l -= 'a' - 'A'
	}
	if l < 'A' || l > 'J' {
		return 0, fmt.Errorf("unknown configuration letter %q: the 3DT letters are A to J", l)
	}
	return letterConfigs[l-'A'], nil
}

// CBest is the optimal configuration of the nDT paper for the given radices. For n
// even, Card0 holds both ports of the lower n/2 dimensions. For n odd, Card0 holds both
// ports of d_0..d_{m-1} (m = (n-1)/2) and one port of the split dimension d_m: d_m- as
// in the paper when k_m is odd, and d_m+ when k_m is even, because with DOR ties sent
// in the + direction that orientation is the optimum (it reproduces Table 1.1 of the
// thesis: CBest = configuration D on a 4×4×4 3DT torus).
func CBest(radix []int) Config {
	n := len(radix)
	var c Config
	for d := 0; d < n/2; d++ {
		c |= PortBit(d, +1) | PortBit(d, -1)
	}
	if n%2 == 1 {
		m := n / 2
		if radix[m]%2 == 0 {
			c |= PortBit(m, +1)
		} else {
			c |= PortBit(m, -1)
		}
	}
	return c
}

// Configurations lists the ½·C(2n,n) distinct configurations of an nDT node, each in
// its canonical form (d0+ on Card0), in canonical order: lexicographic over Card0's
// port list in port order d0+, d0-, d1+, d1-, ...
func Configurations(n int) ([]Config, error) {
	if n < 2 || n > MaxTwinDims {
		return nil, fmt.Errorf("twin tori have 2 to %d dimensions, not %d", MaxTwinDims, n)
	}
	var out []Config
	var rec func(next, left int, c Config)
	rec = func(next, left int, c Config) {
		if left == 0 {
			out = append(out, c)
			return
		}
		for b := next; b <= 2*n-left; b++ {
			rec(b+1, left-1, c|1<<b)
		}
	}
	rec(1, n-1, 1) // bit 0 (d0+) is always on Card0 in the canonical form
	return out, nil
}

// ParsePorts reads an explicit Card0 port list such as "x+,y+,x-" or "d0+,d0-,d2+"
// for an n-dimensional twin torus. x, y and z name d0, d1 and d2.
func ParsePorts(s string, n int) (Config, error) {
	var c Config
	items := strings.Split(s, ",")
	for _, it := range items {
		d, dir, err := parseDimPort(strings.TrimSpace(it), n)
		if err != nil {
			return 0, err
		}
		if c.Has(d, dir) {
			return 0, fmt.Errorf("port %s is listed twice in %q", DimPortName(d, dir, n), s)
		}
		c |= PortBit(d, dir)
	}
	if c.Size() != n {
		return 0, fmt.Errorf("Card0 of a %dD twin torus has %d external ports, %q lists %d", n, n, s, c.Size())
	}
	return c, nil
}

func parseDimPort(s string, n int) (d, dir int, err error) {
	bad := func(why string) (int, int, error) {
		return 0, 0, fmt.Errorf("bad port %q: %s; a port is x, y, z or d0..d%d followed by + or -", s, why, n-1)
	}
	if len(s) < 2 {
		return bad("too short")
	}
	switch s[len(s)-1] {
	case '+':
		dir = 1
	case '-':
		dir = -1
	default:
		return bad("no direction")
	}
	name := strings.ToLower(s[:len(s)-1])
	switch {
	case name == "x" || name == "y" || name == "z":
		d = int(name[0] - 'x')
	case name[0] == 'd' && len(name) > 1 && len(name) <= 3:
		v, e := strconv.Atoi(name[1:])
		if e != nil || v < 0 || name[1] == '+' {
			return bad("unknown dimension")
		}
		d = v
	default:
		return bad("unknown dimension")
	}
	if d >= n {
		return bad(fmt.Sprintf("the network has dimensions 0..%d only", n-1))
	}
	return d, dir, nil
}
