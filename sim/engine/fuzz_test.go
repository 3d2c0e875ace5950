package engine

import (
	"strings"
	"testing"
)

// FuzzParseAllocator: any text is read or refused with an error, never a panic, and
// what is read prints back to itself.
func FuzzParseAllocator(f *testing.F) {
	for _, s := range []string{"", "rr2", "islip", "islip:3", "ISLIP:64", "islip:0", "islip:-1", "rr2:1", "islip: 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAllocator(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: empty error", s)
			}
			return
		}
		if err := a.validate(CutThrough); err != nil {
			t.Fatalf("%q reads as %v, which does not validate: %v", s, a, err)
		}
		b, err := ParseAllocator(a.String())
		if err != nil || b != a {
			t.Fatalf("%q reads as %v, whose text %q reads as %v, %v", s, a, a.String(), b, err)
		}
	})
}

// FuzzParsePacketLengths: any text is read or refused with a one-line error, never a
// panic, and what is read prints back to itself and marshals to text that reads back.
func FuzzParsePacketLengths(f *testing.F) {
	for _, s := range []string{"", "fixed", "uniform", "UNIFORM", " fixed ", "uniform:1", "unif", "fixed\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParsePacketLengths(s)
		if err != nil {
			if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
				t.Fatalf("%q: error %q", s, msg)
			}
			return
		}
		if err := l.validate(); err != nil {
			t.Fatalf("%q reads as %v, which does not validate: %v", s, l, err)
		}
		if m, err := ParsePacketLengths(l.String()); err != nil || m != l {
			t.Fatalf("%q reads as %v, whose text reads as %v, %v", s, l, m, err)
		}
		text, _ := l.MarshalText()
		var m PacketLengths
		if err := m.UnmarshalText(text); err != nil || m != l {
			t.Fatalf("%q: marshalled as %q, read back as %v, %v", s, text, m, err)
		}
	})
}
