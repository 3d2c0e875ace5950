package testwait

import (
	"os"
	"strconv"
	"time"
)

// Env is the variable that holds the slowdown factor: a number from 1 (a quiet
// machine, the default) up to MaxFactor.
const Env = "TWINTORUS_TEST_SLOWDOWN"

// MaxFactor bounds the factor, so that a mistyped value cannot make a hang wait for
// days.
const MaxFactor = 20

// Factor is the slowdown in Env, or 1 when it is unset or not a number from 1 to
// MaxFactor (a bad value must not turn a wait into no wait at all).
func Factor() float64 {
	f, err := strconv.ParseFloat(os.Getenv(Env), 64)
	if err != nil || !(f >= 1) {
		return 1
	}
	return min(f, MaxFactor)
}

// Scale is wait d stretched by Factor.
func Scale(d time.Duration) time.Duration {
	return time.Duration(float64(d) * Factor())
}
