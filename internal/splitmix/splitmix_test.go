package splitmix

import "testing"

// The reference outputs of SplitMix64 seeded with 0 and with 1234567 (the sequence
// published with the algorithm and reproduced by every port, e.g. Java's
// SplittableRandom and Vigna's splitmix64.c).
func TestNextMatchesReference(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		want []uint64
	}{
		{0, []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}},
		{1234567, []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423}},
	} {
		x := c.seed
		for i, w := range c.want {
			if got := Next(&x); got != w {
				t.Errorf("seed %d, value %d: %#x, want %#x", c.seed, i, got, w)
			}
		}
	}
}

func TestHashIsNextOfState(t *testing.T) {
	for _, x := range []uint64{0, 1, 1 << 63, 0xdeadbeef} {
		s := x
		if Hash(x) != Next(&s) || s != x+golden {
			t.Errorf("Hash(%#x) is not the first output of state %#x", x, x)
		}
	}
}

func TestNthIsNext(t *testing.T) {
	x := uint64(42)
	for k := uint64(0); k < 5; k++ {
		if got, want := Nth(42, k), Next(&x); got != want {
			t.Errorf("Nth(42, %d) = %#x, the generator's value %#x", k, got, want)
		}
	}
}
