package version

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	if got := String(); !strings.HasPrefix(got, Version) {
		t.Fatalf("String() = %q, want it to start with %q", got, Version)
	}
	old := Revision
	defer func() { Revision = old }()
	Revision = "abc1234"
	if got, want := String(), Version+"+abc1234"; got != want {
		t.Fatalf("with Revision set: String() = %q, want %q", got, want)
	}
}
