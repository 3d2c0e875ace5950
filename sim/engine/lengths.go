package engine

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/twintorus/twintorus/internal/splitmix"
)

// PacketLengths is how long the packets of a run are, PacketFlits being the longest.
// The zero value, LengthsFixed, is the papers' model: every packet is PacketFlits
// long, and a closed-loop message's last packet is padded to that length.
// LengthsUniform is EXTOLL's ([EXT] §2.1 and §4.1, packets of 1-32
// cells): an open-loop packet's length is uniform over 1..PacketFlits, drawn for each
// packet (the offered load stays in flits, so the packet rate is the load over the
// mean length, (1+PacketFlits)/2); a closed-loop message is cut into packets of
// PacketFlits and one last packet of the flits that remain, unpadded.
type PacketLengths uint8

// The packet-length models.
const (
	LengthsFixed PacketLengths = iota
	LengthsUniform
)

// The packet-length models as the command line and specs name them.
const (
	LengthsFixedName   = "fixed"
	LengthsUniformName = "uniform"
)

func (l PacketLengths) String() string {
	if l == LengthsUniform {
		return LengthsUniformName
	}
	return LengthsFixedName
}

// MarshalText writes "uniform", or "" for fixed lengths (so that records of runs with
// the default keep their keys).
func (l PacketLengths) MarshalText() ([]byte, error) {
	if l == LengthsFixed {
		return nil, nil
	}
	return []byte(l.String()), nil
}

// UnmarshalText reads what ParsePacketLengths reads, and "" for fixed lengths.
func (l *PacketLengths) UnmarshalText(b []byte) error {
	v, err := ParsePacketLengths(string(b))
	*l = v
	return err
}

// ParsePacketLengths reads "fixed" (or "", the default) or "uniform".
func ParsePacketLengths(s string) (PacketLengths, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", LengthsFixedName:
		return LengthsFixed, nil
	case LengthsUniformName:
		return LengthsUniform, nil
	}
	return LengthsFixed, fmt.Errorf("packet lengths %q: accepted are fixed (every packet packet_flits long, the default) and uniform (1 to packet_flits flits)", s)
}

// validate checks a value set by hand rather than parsed.
func (l PacketLengths) validate() error {
	if l > LengthsUniform {
		return fmt.Errorf("packet lengths %d: accepted are fixed and uniform", l)
	}
	return nil
}

// shortestPacket is the fewest flits a packet of the run can have: what sizes the
// queues of queued packets.
func (p *Params) shortestPacket() int {
	if p.PacketLengths == LengthsUniform {
		return 1
	}
	return p.PacketFlits
}

// MeanPacketFlits is the mean length of an open-loop packet: PacketFlits, or
// (1+PacketFlits)/2 under uniform lengths.
func (p Params) MeanPacketFlits() float64 {
	if p.PacketLengths == LengthsUniform {
		return float64(1+p.PacketFlits) / 2
	}
	return float64(p.PacketFlits)
}

// uniformLength is the length of packet k of an open-loop message whose lengths were
// drawn as seed: uniform over 1..max, from a counter-based hash (SplitMix64's
// finaliser), so that a message keeps one number however many packets it has, and its
// lengths are known when it is generated (its flits count as offered then) and again
// when each packet starts.
func uniformLength(seed uint64, k int32, max uint32) uint32 {
	hi, _ := bits.Mul64(splitmix.Nth(seed, uint64(k)), uint64(max))
	return uint32(hi) + 1
}
