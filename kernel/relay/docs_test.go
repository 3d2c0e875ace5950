package relay

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// clock is a settable time for the state's retries.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newClockState(t *testing.T) (*State, *clock) {
	t.Helper()
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewState(testKey)
	s.now = c.now
	return s, c
}

func completeRequest(t *testing.T, id string) *Message {
	return msg(t, []string{"client-" + id}, "complete_request", id, "", map[string]any{"code": "topology.MustNe", "cursor_pos": 15})
}

func completeReply(t *testing.T, parent, status string, matches ...string) *Message {
	return msg(t, []string{"client-" + parent}, "complete_reply", "reply-"+parent+status, parent,
		map[string]any{"status": status, "matches": append([]string{}, matches...)})
}

func inspectReply(t *testing.T, parent string, data map[string]string) *Message {
	return msg(t, []string{"client-" + parent}, "inspect_reply", "reply-"+parent, parent,
		map[string]any{"status": "ok", "found": true, "data": data, "metadata": map[string]any{}})
}

// TestFirstCompletionIsAskedAgain: gonb gives gopls two seconds; while gopls loads
// the packages of the first request, gonb answers with an empty error. The relay asks
// again, a second later each time, until an answer comes, and the client sees only
// that answer.
func TestFirstCompletionIsAskedAgain(t *testing.T) {
	s, c := newClockState(t)
	req := completeRequest(t, "c1")
	expect(t, "request", s.ClientRequest(req), "gonb shell:complete_request:")
	c.advance(2 * time.Second) // gonb's deadline
	for i := 0; i < 3; i++ {
		out := s.GonbReply(completeReply(t, "c1", "error"))
		expect(t, "timed out", out, "gonb shell:complete_request:")
		if out[0].Msg != req || out[0].After != retryPause {
			t.Errorf("asked again %v later with %s, want the client's request a pause later", out[0].After, out[0].Msg.ID())
		}
		c.advance(retryPause + 2*time.Second)
	}
	good := completeReply(t, "c1", "ok", "MustNew")
	out := s.GonbReply(good)
	expect(t, "answer", out, "client shell:complete_reply:c1:ok")
	if out[0].Msg != good || out[0].After != 0 {
		t.Error("the answer was changed or delayed")
	}
	if len(s.docs) != 0 {
		t.Errorf("%d requests still tracked", len(s.docs))
	}
}

// The relay stops asking and passes gonb's last answer on: after docRetryWindow
// while gonb's answers take its whole deadline, after quickRetryWindow while they
// come at once (which may be an error that asking again does not change).
func TestCompletionRetriesAreBounded(t *testing.T) {
	for _, c := range []struct {
		name   string
		answer time.Duration // how long gonb takes to answer
		window time.Duration
	}{{"timeouts", 2 * time.Second, docRetryWindow}, {"quick errors", 10 * time.Millisecond, quickRetryWindow}} {
		t.Run(c.name, func(t *testing.T) {
			s, clk := newClockState(t)
			s.ClientRequest(completeRequest(t, "c1"))
			clk.advance(c.answer)
			for tries := 0; ; tries++ {
				out := s.GonbReply(completeReply(t, "c1", "error"))
				if out[0].To == ToClient {
					expect(t, "given up", out, "client shell:complete_reply:c1:error")
					break
				}
				if tries > 100 {
					t.Fatal("the relay never gives up")
				}
				clk.advance(out[0].After + c.answer)
			}
			if took := clk.t.Sub(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); took < c.window-retryPause-c.answer || took > c.window+c.answer {
				t.Errorf("gave up after %v, want about %v", took, c.window)
			}
		})
	}
}

// Inline documentation fails the same ways, as an "ok" reply whose text is gopls'
// error; it is asked again, and the answer's links are fixed. Other text (gonb's
// help on a special command line) is an answer.
func TestInspectAskedAgainAndLinksFixed(t *testing.T) {
	s, c := newClockState(t)
	s.SetModule("/home/ada/twintorus", "github.com/twintorus/twintorus")
	req := msg(t, []string{"client-i1"}, "inspect_request", "i1", "", map[string]any{"code": "topology.MustNew", "cursor_pos": 12, "detail_level": 0})
	expect(t, "request", s.ClientRequest(req), "gonb shell:inspect_request:")
	c.advance(2 * time.Second)
	expect(t, "timed out", s.GonbReply(inspectReply(t, "i1", map[string]string{"text/plain": "context deadline exceeded"})),
		"gonb shell:inspect_request:")
	c.advance(retryPause + 100*time.Millisecond)
	expect(t, "file not loaded yet", s.GonbReply(inspectReply(t, "i1", map[string]string{"text/plain": "no package metadata for file file:///tmp/gonb_1/main.go"})),
		"gonb shell:inspect_request:")
	c.advance(retryPause + time.Second)
	hover := "```go\nfunc topology.MustNew(spec string) *topology.Network\n```\n\n---\n\nMustNew is New for specs known to be valid.\n\n\n---\n\n" +
		"[`topology.MustNew` on pkg.go.dev](https://pkg.go.dev//home/ada/twintorus@/sim/topology#MustNew)"
	out := s.GonbReply(inspectReply(t, "i1", map[string]string{"text/markdown": hover}))
	expect(t, "answer", out, "client shell:inspect_reply:i1:ok")
	var content struct {
		Found bool              `json:"found"`
		Data  map[string]string `json:"data"`
	}
	if err := json.Unmarshal(out[0].Msg.Content, &content); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(hover, "https://pkg.go.dev//home/ada/twintorus@/sim/topology", "https://pkg.go.dev/github.com/twintorus/twintorus/sim/topology", 1)
	if !content.Found || content.Data["text/markdown"] != want {
		t.Errorf("inspect reply data = %q, want %q", content.Data["text/markdown"], want)
	}
}

func TestInspectHelpIsAnAnswer(t *testing.T) {
	s, _ := newClockState(t)
	s.ClientRequest(msg(t, []string{"client-i1"}, "inspect_request", "i1", "", map[string]any{"code": "%help", "cursor_pos": 2, "detail_level": 0}))
	expect(t, "help", s.GonbReply(inspectReply(t, "i1", map[string]string{"text/plain": "GoNB is a Go kernel..."})), "client shell:inspect_reply:i1:ok")
}

func TestFixDocLinks(t *testing.T) {
	const dir, mod = "/home/ada/twin torus", "github.com/twintorus/twintorus"
	for _, c := range []struct{ in, want string }{
		{"[`topology.MustNew` on pkg.go.dev](https://pkg.go.dev//home/ada/twin torus@/sim/topology#MustNew)",
			"[`topology.MustNew` on pkg.go.dev](https://pkg.go.dev/github.com/twintorus/twintorus/sim/topology#MustNew)"},
		// Hovering a package name links the package.
		{"[`topology` on pkg.go.dev](https://pkg.go.dev//home/ada/twin torus@/sim/topology)",
			"[`topology` on pkg.go.dev](https://pkg.go.dev/github.com/twintorus/twintorus/sim/topology)"},
		// Other modules' links are right already.
		{"[`plot.New` on pkg.go.dev](https://pkg.go.dev/gonum.org/v1/plot@v0.17.0#New)",
			"[`plot.New` on pkg.go.dev](https://pkg.go.dev/gonum.org/v1/plot@v0.17.0#New)"},
		// Another local directory: no page to link to, so no link (nor its rule).
		{"doc\n\n---\n\n[`x.Y` on pkg.go.dev](https://pkg.go.dev//home/ada/other@/x#Y)", "doc"},
		{"doc [`x.Y` on pkg.go.dev](https://pkg.go.dev/../other@/x#Y)", "doc "},
		{"no links at all", "no links at all"},
	} {
		if got := FixDocLinks(c.in, dir, mod); got != c.want {
			t.Errorf("FixDocLinks(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseVerbose(t *testing.T) {
	for in, want := range map[string]int{"": 0, "0": 0, " 1 ": 1, "3": 2 + 1} {
		if got, err := ParseVerbose(in); err != nil || got != want {
			t.Errorf("ParseVerbose(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"yes", "-1", "10", "1.5"} {
		if _, err := ParseVerbose(in); err == nil || !strings.Contains(err.Error(), VerboseEnv) {
			t.Errorf("ParseVerbose(%q): err = %v", in, err)
		}
	}
	if got := strings.Join(GonbLogFlags(0), " "); !strings.Contains(got, "-stderrthreshold=ERROR") || !strings.Contains(got, "-logtostderr=false") {
		t.Errorf("quiet flags %q", got)
	}
	if GonbLogFlags(1) != nil || strings.Join(GonbLogFlags(3), " ") != "-v=2" {
		t.Errorf("verbose flags %q, %q", GonbLogFlags(1), GonbLogFlags(3))
	}
}
