package browsertest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/twintorus/twintorus/internal/testwait"
)

// DefaultChromium is where Debian's chromium package puts the browser.
const DefaultChromium = "/usr/bin/chromium"

// Chromium returns the browser to run: $CHROMIUM if set, else DefaultChromium. It
// returns "" when that file does not exist.
func Chromium() string {
	path := os.Getenv("CHROMIUM")
	if path == "" {
		path = DefaultChromium
	}
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	return path
}

// RequiredEnv names the environment variable that turns Require's skip into a
// failure: `make test` sets it, so a CI machine without Chromium cannot pass by
// skipping the browser tests.
const RequiredEnv = "TWINTORUS_BROWSER_REQUIRED"

// Require skips the test when Chromium is not installed, and returns its path.
// With TWINTORUS_BROWSER_REQUIRED=1 a missing Chromium fails the test instead.
func Require(t testing.TB) string {
	t.Helper()
	path := Chromium()
	if path == "" {
		if os.Getenv(RequiredEnv) == "1" {
			t.Fatal("Chromium is not installed (" + DefaultChromium + " or $CHROMIUM) and " + RequiredEnv + "=1: run scripts/setup-browser.sh")
		}
		t.Skip("Chromium is not installed (" + DefaultChromium + " or $CHROMIUM): run scripts/setup-browser.sh to run browser tests")
	}
	return path
}

// Flags are Chromium's switches besides the profile directory. Headless as root
// needs --no-sandbox; the background-networking, component-update and sync switches
// stop Chromium's own connections, which a closed network refuses by the dozen.
var Flags = []string{
	"headless", "no-sandbox", "disable-gpu", "disable-quic", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync",
}

// blocked are the schemes a page may not load from; see Page.Offsite.
var blocked = []string{"http", "https", "ws", "wss"}

// Request is one network request the page made.
type Request struct {
	URL string
	// Failed is why the request failed: Chromium's error text, such as
	// "net::ERR_CONNECTION_REFUSED", or "blocked: inspector" for one this package
	// blocked; "" when it did not fail.
	Failed string
}

// Page is a headless Chromium showing one local file, and what the page has done.
type Page struct {
	ctx      context.Context // the tab; bounded by the context given to Load
	cancel   context.CancelFunc
	dataDir  string
	mu       sync.Mutex // the listener runs on chromedp's reader goroutine
	requests []Request
	byID     map[network.RequestID]int
	errors   []string
}

// Load starts Chromium with a new profile in a temporary directory, opens the file
// at path and waits for its load event. Requests to http(s) and ws(s) are blocked.
// ctx bounds the whole life of the browser: give it a timeout, and Close the page
// when done.
func Load(ctx context.Context, path string) (*Page, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("browsertest: %w", err)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("browsertest: page: %w", err)
	}
	u := url.URL{Scheme: "file", Path: abs}
	return open(ctx, u.String(), true)
}

// LoadURL opens a page served over http, such as a local Jupyter server, with the
// network open: the test checks Requests for anything that left the machine. ctx
// bounds the browser's life, as for Load.
func LoadURL(ctx context.Context, rawURL string) (*Page, error) {
	return open(ctx, rawURL, false)
}

func open(ctx context.Context, pageURL string, block bool) (*Page, error) {
	chromium := Chromium()
	if chromium == "" {
		return nil, fmt.Errorf("browsertest: Chromium not found at %s (set CHROMIUM or run scripts/setup-browser.sh)", DefaultChromium)
	}
	dataDir, err := os.MkdirTemp("", "browsertest-profile-")
	if err != nil {
		return nil, fmt.Errorf("browsertest: profile directory: %w", err)
	}
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(chromium), chromedp.UserDataDir(dataDir), chromedp.WindowSize(1280, 1000)}
	for _, f := range Flags {
		opts = append(opts, chromedp.Flag(f, true))
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx)
	p := &Page{
		ctx:     tabCtx,
		cancel:  func() { cancelTab(); cancelAlloc() },
		dataDir: dataDir,
		byID:    map[network.RequestID]int{},
	}
	// Listen starts the browser; it must come before the navigation it watches.
	if err := chromedp.Listen(tabCtx, p.record); err != nil {
		return nil, p.fail(fmt.Errorf("browsertest: starting %s: %w", chromium, err))
	}
	if block {
		patterns := make([]*network.BlockPattern, len(blocked))
		for i, scheme := range blocked {
			patterns[i] = &network.BlockPattern{URLPattern: scheme + "://*:*/*", Block: true}
		}
		if _, err := chromedp.Call(tabCtx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: patterns}); err != nil {
			return nil, p.fail(fmt.Errorf("browsertest: blocking network requests: %w", err))
		}
	}
	if err := chromedp.Do(tabCtx, chromedp.Navigate(pageURL)); err != nil {
		return nil, p.fail(fmt.Errorf("browsertest: loading %s: %w", pageURL, err))
	}
	return p, nil
}

// WaitFor evaluates a JavaScript expression until it is true, every 100 ms, for up
// to timeout, stretched by the machine's slowdown (testwait.Scale); the error says
// what was awaited.
func (p *Page) WaitFor(expr string, timeout time.Duration) error {
	timeout = testwait.Scale(timeout)
	deadline := time.Now().Add(timeout)
	for {
		ok, err := Eval[bool](p, expr)
		if err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			if err != nil {
				return fmt.Errorf("browsertest: waited %v for %s: %w", timeout, expr, err)
			}
			return fmt.Errorf("browsertest: waited %v for %s", timeout, expr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Goto loads another local file in the same browser, as Load does, and forgets what
// the page did before: Requests and Errors then report the new page alone. Starting
// Chromium is a few seconds of CPU, more than loading most pages.
func (p *Page) Goto(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("browsertest: %w", err)
	}
	if _, err := os.Stat(abs); err != nil {
		return fmt.Errorf("browsertest: page: %w", err)
	}
	p.mu.Lock()
	p.requests, p.errors, p.byID = nil, nil, map[network.RequestID]int{}
	p.mu.Unlock()
	u := url.URL{Scheme: "file", Path: abs}
	if err := chromedp.Do(p.ctx, chromedp.Navigate(u.String())); err != nil {
		return fmt.Errorf("browsertest: loading %s: %w", u.String(), err)
	}
	return nil
}

// fail closes a page that could not load and returns err with any close error.
func (p *Page) fail(err error) error {
	return errors.Join(err, p.Close())
}

// record keeps requests and errors; it runs on chromedp's reader, so it only appends.
func (p *Page) record(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		if e.Request != nil {
			p.byID[e.RequestID] = len(p.requests)
			p.requests = append(p.requests, Request{URL: e.Request.URL})
		}
	case *network.EventLoadingFailed:
		if i, ok := p.byID[e.RequestID]; ok {
			p.requests[i].Failed = e.ErrorText
			if e.BlockedReason != "" {
				p.requests[i].Failed = strings.TrimSpace(e.ErrorText + " blocked: " + string(e.BlockedReason))
			}
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		if d == nil {
			return
		}
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + strings.SplitN(d.Exception.Description, "\n", 2)[0]
		}
		p.errors = append(p.errors, msg)
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError {
			var parts []string
			for _, a := range e.Args {
				if a.Value != nil {
					parts = append(parts, strings.Trim(string(a.Value), `"`))
				} else {
					parts = append(parts, a.Description)
				}
			}
			p.errors = append(p.errors, "console.error: "+strings.Join(parts, " "))
		}
	}
}

// Requests returns every request the page made so far, the page itself first.
func (p *Page) Requests() []Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Request(nil), p.requests...)
}

// Offsite returns the requests that were not for file: or data: URLs: anything a
// self-contained page should never ask for.
func (p *Page) Offsite() []Request {
	var out []Request
	for _, r := range p.Requests() {
		if !strings.HasPrefix(r.URL, "file:") && !strings.HasPrefix(r.URL, "data:") {
			out = append(out, r)
		}
	}
	return out
}

// Errors returns the page's uncaught exceptions and console.error calls so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

// HTML returns the document's current markup, after its scripts ran.
func (p *Page) HTML() (string, error) {
	return Eval[string](p, "document.documentElement.outerHTML")
}

// Screenshot returns a PNG of the whole page.
func (p *Page) Screenshot() ([]byte, error) {
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return nil, fmt.Errorf("browsertest: screenshot: %w", err)
	}
	return png, nil
}

// Eval evaluates a JavaScript expression in the page and decodes its JSON value.
func Eval[T any](p *Page, expr string) (T, error) {
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		return v, fmt.Errorf("browsertest: evaluating %q: %w", expr, err)
	}
	return v, nil
}

// Close stops the browser and removes its profile directory.
func (p *Page) Close() error {
	var err error
	if p.ctx != nil {
		err = chromedp.Cancel(p.ctx)
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			err = nil // already stopped with its context
		}
	}
	p.cancel()
	if rmErr := os.RemoveAll(p.dataDir); rmErr != nil {
		err = errors.Join(err, fmt.Errorf("browsertest: removing profile: %w", rmErr))
	}
	if err != nil {
		return fmt.Errorf("browsertest: closing Chromium: %w", err)
	}
	return nil
}
