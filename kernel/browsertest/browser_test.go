package browsertest

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twintorus/twintorus/internal/testwait"
)

func load(t *testing.T, path string) *Page {
	t.Helper()
	Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(60*time.Second))
	t.Cleanup(cancel)
	p, err := Load(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	return p
}

func TestLoadLocalPage(t *testing.T) {
	p := load(t, "testdata/canvas.html")

	html, err := p.HTML()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html, `<p id="status">script ran</p>`) || !strings.Contains(html, `<canvas id="chart"`) {
		t.Errorf("the inline script did not run; DOM:\n%s", html)
	}
	n, err := Eval[int](p, `document.querySelectorAll("canvas").length`)
	if err != nil || n != 1 {
		t.Errorf("canvases = %d, %v; want 1", n, err)
	}
	pixel, err := Eval[[]int](p, `window.pixel`)
	if err != nil || len(pixel) != 4 || pixel[0] != 59 || pixel[1] != 125 || pixel[2] != 216 || pixel[3] != 255 {
		t.Errorf("canvas pixel = %v, %v; want [59 125 216 255]", pixel, err)
	}

	reqs := p.Requests()
	if len(reqs) == 0 || !strings.HasPrefix(reqs[0].URL, "file://") || !strings.HasSuffix(reqs[0].URL, "/testdata/canvas.html") {
		t.Errorf("first request should be the page itself: %+v", reqs)
	}
	if off := p.Offsite(); len(off) != 0 {
		t.Errorf("requests other than file: and data:: %+v", off)
	}
	if errs := p.Errors(); len(errs) != 0 {
		t.Errorf("page errors: %q", errs)
	}

	png, err := p.Screenshot()
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("screenshot: %d bytes, %v", len(png), err)
	}
}

// TestRecordsOffsiteRequests shows the recorder is not blind: a page that asks for
// a script over http has that request recorded and blocked, and its errors kept.
func TestRecordsOffsiteRequests(t *testing.T) {
	p := load(t, "testdata/offsite.html")
	off := p.Offsite()
	if len(off) != 1 || off[0].URL != "http://127.0.0.1:9/never.js" || off[0].Failed != "blocked: inspector" {
		t.Errorf("offsite requests = %+v; want the blocked never.js", off)
	}
	errs := strings.Join(p.Errors(), "\n")
	if !strings.Contains(errs, "console.error: from the page 42") || !strings.Contains(errs, "TypeError") {
		t.Errorf("errors = %q; want the console.error call and the TypeError", errs)
	}
}

func TestLoadMissingFile(t *testing.T) {
	Require(t)
	if _, err := Load(context.Background(), "testdata/no-such-page.html"); err == nil {
		t.Error("Load of a missing file: no error")
	}
}

// TestGoto: one browser loads a second page; what the first did is forgotten, and
// the second's requests are recorded and blocked as the first's were.
func TestGoto(t *testing.T) {
	p := load(t, "testdata/canvas.html")
	if err := p.Goto("testdata/offsite.html"); err != nil {
		t.Fatal(err)
	}
	off := p.Offsite()
	if len(off) != 1 || off[0].URL != "http://127.0.0.1:9/never.js" || off[0].Failed != "blocked: inspector" {
		t.Errorf("after Goto, offsite requests = %+v; want the blocked never.js", off)
	}
	if reqs := p.Requests(); len(reqs) == 0 || !strings.HasSuffix(reqs[0].URL, "/testdata/offsite.html") {
		t.Errorf("after Goto, the first request should be the new page: %+v", reqs)
	}
	if err := p.Goto("testdata/canvas.html"); err != nil {
		t.Fatal(err)
	}
	if off, errs := p.Offsite(), p.Errors(); len(off) != 0 || len(errs) != 0 {
		t.Errorf("back on canvas.html: offsite %+v, errors %q; want none (the last page's are forgotten)", off, errs)
	}
	if n, err := Eval[int](p, `document.querySelectorAll("canvas").length`); err != nil || n != 1 {
		t.Errorf("canvases = %d, %v; want 1", n, err)
	}
	if err := p.Goto("testdata/no-such-page.html"); err == nil {
		t.Error("Goto a missing file: no error")
	}
}
