package traffic

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// MaxPackets bounds the packets of one message, so that sizes in flits cannot overflow.
const MaxPackets = 1 << 20

// SizesGrammar is the message-size grammar, for help texts and error messages.
const SizesGrammar = `N           every message has N packets, e.g. 1
LO-HI       uniform over LO..HI packets, e.g. 1-32
P%xR,...    a mixture: with probability P percent, R packets (R is N or LO-HI);
            the percentages sum to 100, e.g. 70%x1,30%x3 or 70%x2,30%x8`

const acceptedSizes = "accepted: N (e.g. 1), LO-HI (e.g. 1-32) or a mixture P%xR,... summing to 100% (e.g. 70%x1,30%x3)"

// Sizes is a distribution of message sizes in packets: a mixture of components, each
// a percentage and a packet count or a uniform range of counts. The zero Sizes is one
// packet per message. Build one with ParseSizes; String prints it back.
//
// The unit is the packet, whose length in flits the engine sets. For the EXTOLL
// paper's packets of 1–32 cells use "1-32" with one-flit packets of one cell: the mean
// and the offered load are right, but the engine sees n one-flit packets where EXTOLL
// sends one n-cell packet (a difference for virtual cut-through buffering).
type Sizes struct {
	parts []sizePart
	total float64 // sum of the percentages, 100 within rounding
}

type sizePart struct {
	pct    float64 // weight in percent
	cum    float64 // pct of this and earlier parts
	lo, hi int     // packets, uniform over lo..hi
}

// ParseSizes reads a message-size spec (see SizesGrammar). Errors say what is wrong
// and what is accepted, in one line.
func ParseSizes(spec string) (Sizes, error) {
	s, err := parseSizes(strings.TrimSpace(spec))
	if err != nil {
		return Sizes{}, fmt.Errorf("message sizes %q: %w", spec, err)
	}
	return s, nil
}

func parseSizes(spec string) (Sizes, error) {
	if spec == "" {
		return Sizes{}, errors.New("empty; " + acceptedSizes)
	}
	items := strings.Split(spec, ",")
	var s Sizes
	for _, item := range items {
		item = strings.TrimSpace(item)
		pct, count, weighted := strings.Cut(item, "%")
		p := sizePart{pct: 100}
		switch {
		case weighted:
			v, err := parseNumber(strings.TrimSpace(pct))
			if err != nil || v <= 0 || v > 100 {
				return Sizes{}, fmt.Errorf("bad percentage %q: accepted is a number above 0 and at most 100 followed by %%, as in 70%%x1", pct+"%")
			}
			p.pct = v
			rest, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(count)), "x")
			if !ok {
				return Sizes{}, fmt.Errorf("no 'x' after %q in %q: write P%%xPACKETS, as in 70%%x1", pct+"%", item)
			}
			count = rest
		case len(items) > 1:
			return Sizes{}, fmt.Errorf("%q has no percentage: every part of a mixture is P%%xPACKETS; %s", item, acceptedSizes)
		default:
			count = item // a plain count or range is 100 %
		}
		var err error
		if p.lo, p.hi, err = parseCount(strings.TrimSpace(count)); err != nil {
			return Sizes{}, err
		}
		s.total += p.pct
		p.cum = s.total
		s.parts = append(s.parts, p)
	}
	if math.Abs(s.total-100) > 1e-6 {
		return Sizes{}, fmt.Errorf("the percentages sum to %s%%; they must sum to 100%%", strconv.FormatFloat(s.total, 'g', 10, 64))
	}
	return s, nil
}

// parseCount reads "N" or "LO-HI" packets.
func parseCount(s string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(s, "-")
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := lo, error(nil)
	if isRange {
		hi, err2 = strconv.Atoi(strings.TrimSpace(b))
	}
	if err1 != nil || err2 != nil || lo < 1 || hi < lo || hi > MaxPackets {
		return 0, 0, fmt.Errorf("bad packet count %q: accepted is N or LO-HI with 1 <= LO <= HI <= %d", s, MaxPackets)
	}
	return lo, hi, nil
}

// Sample draws the packets of one message.
func (s Sizes) Sample(rng *rand.Rand) int {
	var p sizePart
	switch len(s.parts) {
	case 0:
		return 1
	case 1:
		p = s.parts[0] // no draw: "1" and "100%x1" consume the same randomness
	default:
		u := rng.Float64() * s.total
		p = s.parts[len(s.parts)-1] // u may round up to total
		for _, q := range s.parts {
			if u < q.cum {
				p = q
				break
			}
		}
	}
	if p.hi == p.lo {
		return p.lo
	}
	return p.lo + rng.IntN(p.hi-p.lo+1)
}

// Mean is the mean number of packets per message.
func (s Sizes) Mean() float64 {
	if len(s.parts) == 0 {
		return 1
	}
	m := 0.0
	for _, p := range s.parts {
		m += p.pct * float64(p.lo+p.hi) / 2
	}
	return m / s.total
}

// Max is the largest number of packets a message can have.
func (s Sizes) Max() int {
	m := 1
	for _, p := range s.parts {
		m = max(m, p.hi)
	}
	return m
}

// String is the canonical spec: ParseSizes(s.String()) is s.
func (s Sizes) String() string {
	if len(s.parts) == 0 {
		return "1"
	}
	if len(s.parts) == 1 {
		return countString(s.parts[0])
	}
	var b strings.Builder
	for i, p := range s.parts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(p.pct, 'g', -1, 64))
		b.WriteString("%x")
		b.WriteString(countString(p))
	}
	return b.String()
}

func countString(p sizePart) string {
	if p.lo == p.hi {
		return strconv.Itoa(p.lo)
	}
	return strconv.Itoa(p.lo) + "-" + strconv.Itoa(p.hi)
}

// MarshalText writes the canonical spec, so Sizes fits in YAML and JSON records.
func (s Sizes) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a spec with ParseSizes.
func (s *Sizes) UnmarshalText(text []byte) error {
	v, err := ParseSizes(string(text))
	if err != nil {
		return err
	}
	*s = v
	return nil
}
