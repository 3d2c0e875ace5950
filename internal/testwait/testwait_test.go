package testwait

import (
	"testing"
	"time"
)

func TestScale(t *testing.T) {
	for _, c := range []struct {
		env  string
		want time.Duration
	}{
		{"", time.Minute},
		{"1", time.Minute},
		{"2.5", 150 * time.Second},
		{"0.5", time.Minute}, // a machine cannot be faster than quiet
		{"-3", time.Minute},
		{"NaN", time.Minute},
		{"many", time.Minute},
		{"1e9", MaxFactor * time.Minute},
	} {
		t.Setenv(Env, c.env)
		if got := Scale(time.Minute); got != c.want {
			t.Errorf("%s=%q: Scale(1m) = %v, want %v", Env, c.env, got, c.want)
		}
	}
}
