package booksim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A stable run of BookSim2 (mesh 8x8, uniform, 0.07 flits/cycle/node, 4-flit packets)
// reads as its overall block says, and a run it ended as unstable reads as unstable.
func TestReadOutput(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "output-mesh88-uniform-0.07.txt"))
	if err != nil {
		t.Fatal(err)
	}
	o, err := ParseOutput(data)
	if err != nil {
		t.Fatal(err)
	}
	want := Output{PacketLatency: 37.8211, NetworkLatency: 37.6991, FlitLatency: 34.4632, InjectedFlits: 0.0698802,
		AcceptedFlits: 0.0695625, Hops: 6.39666, Cycles: 6134, Seconds: 0.233443}
	if o != want {
		t.Errorf("got %+v\nwant %+v", o, want)
	}
	data, err = os.ReadFile(filepath.Join("testdata", "output-mesh88-uniform-0.455.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if o, err := ParseOutput(data); err != nil || !o.Unstable || o.PacketLatency != 0 || o.Seconds != 1.62867 {
		t.Errorf("unstable run: %+v, %v; want unstable, no averages, 1.62867 s", o, err)
	}
}

// Outputs that are not a finished run are errors in one line naming what is missing.
func TestReadOutputErrors(t *testing.T) {
	for _, tc := range []struct{ text, says string }{
		{"", "no \"Overall Traffic Statistics\""},
		{"====== Overall Traffic Statistics ======\nPacket latency average = 3 (1 samples)\n", "Network latency average"},
		{"====== Overall Traffic Statistics ======\nPacket latency average = x\n", "not a number"},
		{"====== Overall Traffic Statistics ======\nHops average = -1\n", "not a number"},
		{"====== Overall Traffic Statistics ======\n====== Traffic class 0 ======\n====== Traffic class 1 ======\n", "second traffic class"},
		{"Time taken is many cycles\n", "Time taken"},
	} {
		_, err := ParseOutput([]byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v; want one line saying %q", tc.text, err, tc.says)
		}
	}
}

func FuzzReadOutput(f *testing.F) {
	for _, name := range []string{"output-mesh88-uniform-0.07.txt", "output-mesh88-uniform-0.455.txt"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := ParseOutput(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
			return
		}
		if o.PacketLatency < 0 || o.AcceptedFlits < 0 || o.Cycles < 0 {
			t.Fatalf("negative value read: %+v", o)
		}
	})
}
