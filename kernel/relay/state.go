package relay

import (
	"encoding/json"
	"regexp"
	"strings"
	"time"
)

// Dest says where the relay sends a message.
type Dest int

const (
	// ToGonb is gonb's shell socket.
	ToGonb Dest = iota
	// ToClient is Jupyter's shell socket: a reply routed by its identities.
	ToClient
	// ToIOPub is Jupyter's iopub socket.
	ToIOPub
)

func (d Dest) String() string { return [...]string{"gonb shell", "client shell", "client iopub"}[d] }

// Send is one message the relay is to send.
type Send struct {
	To  Dest
	Msg *Message
	// After delays the send by this long (a request asked again, see docReply).
	After time.Duration
}

// exitLine is what gonb publishes on stderr, as one stream message, when the cell's
// program ends with an error: Go's exec.ExitError text, after "^C" when the cell was
// interrupted (gonb v0.11.1, internal/jpyexec).
var exitLine = regexp.MustCompile(`^(\^C\n)?(exit status -?\d+|signal: [^\n]+)\n$`)

// execution is an execute request the relay has received.
type execution struct {
	request     *Message
	stopOnError bool
	exit        string   // gonb's exit line for the program, "" while none
	line        string   // the program's stderr since its last newline
	cause       string   // the first panic or fatal error line on stderr
	last        string   // the last non-empty line on stderr
	reply, idle *Message // held until both have arrived
}

// State is the relay's bookkeeping of execute requests: which one gonb runs, which
// wait, and what gonb has said about the running one. Its methods take a message
// that arrived and return what to send; they never block and do no I/O.
type State struct {
	key     Key
	session string // the session id of gonb's messages, for the messages the relay makes

	running *execution
	queue   []*execution

	docs      map[string]*docRequest // complete and inspect requests gonb has not answered
	moduleDir string                 // the directory the kernel's module is replaced with, for FixDocLinks
	module    string

	now  func() time.Time     // the clock, which tests set
	logf func(string, ...any) // the relay's debug log; nil for none
}

// NewState returns the bookkeeping for a connection signed with key.
func NewState(key Key) *State {
	return &State{key: key, session: newID(), docs: map[string]*docRequest{}, now: time.Now}
}

// SetModule says which directory cells import module from, so that inspect replies
// link to module's documentation instead of the directory (see FixDocLinks).
func (s *State) SetModule(dir, module string) { s.moduleDir, s.module = dir, module }

// SetLog gives the state a debug log (the relay passes one when the kernel is verbose).
func (s *State) SetLog(logf func(format string, args ...any)) { s.logf = logf }

func (s *State) debugf(format string, args ...any) {
	if s.logf != nil {
		s.logf(format, args...)
	}
}

// Running is the id of the execute request gonb is running, or "".
func (s *State) Running() string {
	if s.running == nil {
		return ""
	}
	return s.running.request.ID()
}

// Queued is the number of execute requests waiting for the running one.
func (s *State) Queued() int { return len(s.queue) }

// ClientRequest handles a request from Jupyter's shell socket. Execute requests go to
// gonb one at a time; everything else goes straight through.
func (s *State) ClientRequest(m *Message) []Send {
	if isDocRequest(m.Type()) {
		now := s.now()
		s.docs[m.ID()] = &docRequest{request: m, first: now, asked: now}
	}
	if m.Type() != "execute_request" {
		return []Send{{To: ToGonb, Msg: m}}
	}
	var c struct {
		StopOnError *bool `json:"stop_on_error"`
	}
	_ = json.Unmarshal(m.Content, &c)
	e := &execution{request: m, stopOnError: c.StopOnError == nil || *c.StopOnError}
	if s.running != nil {
		s.queue = append(s.queue, e)
		return nil
	}
	s.running = e
	return []Send{{To: ToGonb, Msg: m}}
}

// GonbIOPub handles a message gonb published. The running request's idle status is
// held until its reply is in; its stderr is read for the program's exit.
func (s *State) GonbIOPub(m *Message) []Send {
	if m.header.Session != "" {
		s.session = m.header.Session
	}
	e := s.running
	if e == nil || m.ParentID() != e.request.ID() {
		return []Send{{To: ToIOPub, Msg: m}}
	}
	switch m.Type() {
	case "stream":
		var c struct {
			Name string `json:"name"`
			Text string `json:"text"`
		}
		if json.Unmarshal(m.Content, &c) == nil && c.Name == "stderr" {
			if exitLine.MatchString(c.Text) {
				e.exit = strings.TrimSpace(strings.TrimPrefix(c.Text, "^C\n"))
			} else {
				e.scan(c.Text)
			}
		}
	case "status":
		var c struct {
			State string `json:"execution_state"`
		}
		if json.Unmarshal(m.Content, &c) == nil && c.State == "idle" {
			e.idle = m
			return s.finish()
		}
	}
	return []Send{{To: ToIOPub, Msg: m}}
}

// GonbReply handles a message from gonb's shell socket: a reply. The running
// request's reply is held until gonb's idle status for it is in.
func (s *State) GonbReply(m *Message) []Send {
	if m.header.Session != "" {
		s.session = m.header.Session
	}
	if d := s.docs[m.ParentID()]; d != nil && (m.Type() == "complete_reply" || m.Type() == "inspect_reply") {
		return s.docReply(d, m)
	}
	e := s.running
	if e == nil || m.ParentID() != e.request.ID() || m.Type() != "execute_reply" {
		return []Send{{To: ToClient, Msg: m}}
	}
	e.reply = m
	return s.finish()
}

// IdleLate finishes the running request without its idle status: gonb always
// publishes it after the reply, so the relay calls this only when it is overdue.
// The idle status is then passed on whenever it comes.
func (s *State) IdleLate() []Send {
	e := s.running
	if e == nil || e.reply == nil || e.idle != nil {
		return nil
	}
	return s.finishWith(false)
}

// finish ends the running request once both its reply and its idle status are in.
func (s *State) finish() []Send {
	e := s.running
	if e.reply == nil || e.idle == nil {
		return nil
	}
	return s.finishWith(true)
}

func (s *State) finishWith(idle bool) []Send {
	e := s.running
	var out []Send
	reply := e.reply
	var rc struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(reply.Content, &rc)
	failed := rc.Status == "error"
	if rc.Status == "ok" && e.exit != "" {
		failed = true
		ename, evalue := "CellFailed", e.failure()
		traceback := []string{ename + ": " + evalue}
		if errMsg, err := newMessage("error", s.session, e.request, nil, map[string]any{
			"ename": ename, "evalue": evalue, "traceback": traceback,
		}); err == nil {
			s.key.Sign(errMsg)
			out = append(out, Send{To: ToIOPub, Msg: errMsg})
		}
		reply = s.errorReply(reply, ename, evalue, traceback)
	}
	out = append(out, Send{To: ToClient, Msg: reply})
	if idle {
		out = append(out, Send{To: ToIOPub, Msg: e.idle})
	}
	s.running = nil
	if failed && e.stopOnError {
		for _, q := range s.queue {
			out = append(out, s.abort(q)...)
		}
		s.queue = nil
	}
	if len(s.queue) > 0 {
		s.running, s.queue = s.queue[0], s.queue[1:]
		out = append(out, Send{To: ToGonb, Msg: s.running.request})
	}
	return out
}

// errorReply is gonb's "ok" reply turned into an error reply, execution count kept.
func (s *State) errorReply(reply *Message, ename, evalue string, traceback []string) *Message {
	var content map[string]any
	if err := json.Unmarshal(reply.Content, &content); err != nil {
		content = map[string]any{}
	}
	content["status"] = "error"
	content["ename"], content["evalue"], content["traceback"] = ename, evalue, traceback
	delete(content, "user_expressions")
	b, err := json.Marshal(content)
	if err != nil {
		return reply
	}
	out := *reply
	out.Content = b
	s.key.Sign(&out)
	return &out
}

// abort answers a queued request with "aborted", inside busy and idle statuses as
// ipykernel does.
func (s *State) abort(e *execution) []Send {
	var out []Send
	for _, step := range []struct {
		to      Dest
		msgType string
		content any
		ids     [][]byte
	}{
		{ToIOPub, "status", map[string]string{"execution_state": "busy"}, nil},
		{ToClient, "execute_reply", map[string]string{"status": "aborted"}, e.request.Identities},
		{ToIOPub, "status", map[string]string{"execution_state": "idle"}, nil},
	} {
		m, err := newMessage(step.msgType, s.session, e.request, step.ids, step.content)
		if err != nil {
			continue
		}
		s.key.Sign(m)
		out = append(out, Send{To: step.to, Msg: m})
	}
	return out
}

// scan reads the program's stderr line by line for the first panic or fatal error,
// and its last line (what log.Fatal wrote, say).
func (e *execution) scan(text string) {
	if e.cause != "" {
		return
	}
	e.line += text
	for {
		i := strings.IndexByte(e.line, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSpace(e.line[:i])
		e.line = e.line[i+1:]
		if line != "" {
			e.last = line
		}
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			e.cause, e.line = line, ""
			return
		}
	}
	if len(e.line) > 4096 { // a line that long is no panic header
		e.line = e.line[len(e.line)-4096:]
	}
}

// failure describes a failed program: its panic or fatal error, else its last line
// on stderr, and its exit.
func (e *execution) failure() string {
	switch {
	case e.cause != "":
		return e.cause + " (" + e.exit + ")"
	case e.last != "":
		return e.last + " (" + e.exit + ")"
	}
	return "the cell's program ended with " + e.exit
}
