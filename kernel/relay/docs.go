package relay

import (
	"encoding/json"
	"regexp"
	"strings"
	"time"
)

// Completion and inline documentation come from gopls, which gonb asks with a fixed
// two-second deadline (gonb v0.11.1, goplsclient.CommunicationTimeout). The first
// request that needs packages gopls has not loaded yet (the first one after a kernel
// starts, or after a cell imports something new) takes gopls longer than that on a
// busy machine, or finds the cell's file not loaded yet ("no package metadata"): gonb
// answers with an empty error ("complete_reply") or with gopls' error as the
// documentation ("inspect_reply"). gopls goes on loading, so the same request asked
// again a few seconds later is answered. The relay asks again itself, so that the
// first request is answered instead of the user seeing nothing.
const (
	// docRetryWindow bounds how long the relay keeps asking gonb on a request's
	// behalf while gonb's answers take its whole deadline (gopls is busy loading);
	// after it the last answer goes to the client as it is.
	docRetryWindow = 60 * time.Second
	// quickRetryWindow is the bound while the errors come at once: gopls still
	// loading the cell's file, or an error that asking again will not change, which
	// gonb's empty completion error does not tell apart (a cell importing a package
	// that does not exist, say).
	quickRetryWindow = 10 * time.Second
	// slowAnswer tells gonb's timeout from its other errors: its deadline is two seconds.
	slowAnswer = 1500 * time.Millisecond
	// retryPause is the wait before asking again, so that quick errors do not spin.
	retryPause = time.Second
)

// docRequest is a complete or inspect request on its way through gonb.
type docRequest struct {
	request *Message
	first   time.Time // when the client asked
	asked   time.Time // when gonb was last sent it
	tries   int
}

// isDocRequest reports whether a request is answered from gopls.
func isDocRequest(msgType string) bool {
	return msgType == "complete_request" || msgType == "inspect_request"
}

// docReply handles gonb's answer to a complete or inspect request: it asks gonb
// again when gopls was not ready and there is time left, else passes the answer on
// (an inspect reply with its links fixed).
func (s *State) docReply(d *docRequest, m *Message) []Send {
	now := s.now()
	if notReady(m) {
		window := quickRetryWindow
		if now.Sub(d.asked) >= slowAnswer {
			window = docRetryWindow
		}
		if now.Add(retryPause).Before(d.first.Add(window)) {
			d.asked = now.Add(retryPause)
			d.tries++
			s.debugf("relay: gopls was not ready for %s %s (try %d); asking again", d.request.Type(), d.request.ID(), d.tries)
			return []Send{{To: ToGonb, Msg: d.request, After: retryPause}}
		}
	}
	delete(s.docs, d.request.ID())
	if m.Type() == "inspect_reply" && s.moduleDir != "" {
		if fixed, ok := s.fixLinks(m); ok {
			return []Send{{To: ToClient, Msg: fixed}}
		}
	}
	return []Send{{To: ToClient, Msg: m}}
}

// notReady reports whether gonb's answer is an error that gopls may not give once
// it has loaded what the request needs.
func notReady(m *Message) bool {
	var c struct {
		Status string            `json:"status"`
		Data   map[string]string `json:"data"`
	}
	_ = json.Unmarshal(m.Content, &c)
	switch m.Type() {
	case "complete_reply":
		// gonb's error reply says nothing about the error.
		return c.Status == "error"
	case "inspect_reply":
		// gonb shows gopls' error as the documentation.
		text := c.Data["text/plain"]
		return c.Status == "ok" && c.Data["text/markdown"] == "" &&
			(strings.HasPrefix(text, "context deadline exceeded") || strings.HasPrefix(text, "no package metadata for file"))
	}
	return false
}

// localDocLink is a documentation link to a module replaced by a local directory
// (absolute or relative), which pkg.go.dev cannot show, with the rule gopls puts
// before it in a hover.
var localDocLink = regexp.MustCompile(`(\n*---\n*)?\[[^\]\n]*\]\(https://pkg\.go\.dev/(/|\.\.?/)[^)\s]*\)`)

// FixDocLinks rewrites the documentation links in gopls' hover text. gopls makes a
// symbol's link from its module's path and version, and for a module replaced by a
// directory (as the kernel's go wrapper replaces ModulePath with the checkout) that
// is "https://pkg.go.dev/" + dir + "@" + package path: a page that does not exist.
// Links into dir become links to module's page on pkg.go.dev, the same page gopls
// gives every other module's symbols; links to other local directories, whose
// module the relay does not know, are dropped.
func FixDocLinks(text, dir, module string) string {
	if dir != "" {
		text = strings.ReplaceAll(text, "https://pkg.go.dev/"+dir+"@", "https://pkg.go.dev/"+module)
	}
	return localDocLink.ReplaceAllString(text, "")
}

// fixLinks returns m with FixDocLinks applied to its data, re-signed, and whether it
// changed anything.
func (s *State) fixLinks(m *Message) (*Message, bool) {
	var content map[string]json.RawMessage
	if err := json.Unmarshal(m.Content, &content); err != nil {
		return m, false
	}
	var data map[string]any
	if err := json.Unmarshal(content["data"], &data); err != nil {
		return m, false
	}
	changed := false
	for k, v := range data {
		if text, ok := v.(string); ok {
			if fixed := FixDocLinks(text, s.moduleDir, s.module); fixed != text {
				data[k], changed = fixed, true
			}
		}
	}
	if !changed {
		return m, false
	}
	b, err := json.Marshal(data)
	if err != nil {
		return m, false
	}
	content["data"] = b
	if b, err = json.Marshal(content); err != nil {
		return m, false
	}
	out := *m
	out.Content = b
	s.key.Sign(&out)
	return &out, true
}
