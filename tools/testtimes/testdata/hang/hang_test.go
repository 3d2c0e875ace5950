// Package hang has a test that never ends, for tools/testtimes' test of
// scripts/gotest.sh's watchdog.
package hang

import (
	"testing"
	"time"
)

func TestQuick(t *testing.T) {}

func TestHang(t *testing.T) {
	t.Run("forever", func(t *testing.T) { time.Sleep(time.Hour) })
}
