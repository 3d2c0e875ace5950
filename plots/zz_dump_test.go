package plots

import (
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	for name, pl := range layoutPlots() {
		c, err := pl.Chart(ChartWidth, ChartHeight)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile("/tmp/layout/"+name+".html", []byte(Page(name, c)), 0o644)
		f, _ := pl.Figure()
		png, _ := f.PNG(Width, Height)
		os.WriteFile("/tmp/layout/"+name+".png", png, 0o644)
	}
}
