package relay

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

var testKey = Key("a6c1e0d8-key")

// msg makes a signed message as Jupyter or gonb would send it.
func msg(t *testing.T, ids []string, msgType, id, parent string, content any) *Message {
	t.Helper()
	h := func(id, typ string) []byte {
		if id == "" {
			return []byte("{}")
		}
		return []byte(fmt.Sprintf(`{"msg_id":%q,"msg_type":%q,"session":"s1","username":"u","date":"2026-01-01T00:00:00Z","version":"5.3"}`, id, typ))
	}
	c, err := json.Marshal(content)
	if err != nil {
		t.Fatal(err)
	}
	frames := [][]byte{}
	for _, i := range ids {
		frames = append(frames, []byte(i))
	}
	frames = append(frames, delimiter, nil, h(id, msgType), h(parent, "execute_request"), []byte("{}"), c)
	m, err := Parse(frames)
	if err != nil {
		t.Fatal(err)
	}
	testKey.Sign(m)
	return m
}

func execute(t *testing.T, id string, stopOnError bool) *Message {
	return msg(t, []string{"client-" + id}, "execute_request", id, "", map[string]any{"code": "%%\n", "stop_on_error": stopOnError})
}

func status(t *testing.T, parent, state string) *Message {
	return msg(t, nil, "status", "st-"+parent+"-"+state, parent, map[string]string{"execution_state": state})
}

func stream(t *testing.T, parent, name, text string) *Message {
	return msg(t, nil, "stream", "out-"+parent+fmt.Sprint(len(text)), parent, map[string]string{"name": name, "text": text})
}

func reply(t *testing.T, parent, st string, count int) *Message {
	return msg(t, []string{"client-" + parent}, "execute_reply", "reply-"+parent, parent, map[string]any{"status": st, "execution_count": count})
}

// sent describes sends as "dest:type:parent[:status]" for comparison.
func sent(t *testing.T, out []Send) []string {
	t.Helper()
	var s []string
	for _, o := range out {
		if !testKey.Verify(o.Msg) {
			t.Errorf("%s to %s is not signed with the key", o.Msg.Type(), o.To)
		}
		d := fmt.Sprintf("%s:%s:%s", o.To, o.Msg.Type(), o.Msg.ParentID())
		var c struct {
			Status string `json:"status"`
			State  string `json:"execution_state"`
		}
		_ = json.Unmarshal(o.Msg.Content, &c)
		if c.Status != "" {
			d += ":" + c.Status
		}
		if c.State != "" {
			d += ":" + c.State
		}
		s = append(s, d)
	}
	return s
}

func expect(t *testing.T, what string, out []Send, want ...string) {
	t.Helper()
	got := sent(t, out)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s sent:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestSuccessfulCellPassesThrough: a cell that runs cleanly reaches the client
// unchanged, byte for byte, with its reply before its idle status.
func TestSuccessfulCellPassesThrough(t *testing.T) {
	s := NewState(testKey)
	req := execute(t, "e1", true)
	expect(t, "request", s.ClientRequest(req), "gonb shell:execute_request:")
	expect(t, "busy", s.GonbIOPub(status(t, "e1", "busy")), "client iopub:status:e1:busy")
	expect(t, "stdout", s.GonbIOPub(stream(t, "e1", "stdout", "hello\n")), "client iopub:stream:e1")
	expect(t, "stderr text", s.GonbIOPub(stream(t, "e1", "stderr", "a warning\n")), "client iopub:stream:e1")
	r := reply(t, "e1", "ok", 1)
	expect(t, "reply before idle", s.GonbReply(r))
	out := s.GonbIOPub(status(t, "e1", "idle"))
	expect(t, "idle", out, "client shell:execute_reply:e1:ok", "client iopub:status:e1:idle")
	if out[0].Msg != r {
		t.Error("the reply of a clean cell was changed")
	}
	if s.Running() != "" || s.Queued() != 0 {
		t.Errorf("running %q, queued %d after the cell", s.Running(), s.Queued())
	}
}

// TestPanickingCellFailsAndStopsRunAll is what Run All does: three cells sent at once;
// the first panics; it ends with an error, the others are aborted, and gonb never sees
// them.
func TestPanickingCellFailsAndStopsRunAll(t *testing.T) {
	s := NewState(testKey)
	expect(t, "first", s.ClientRequest(execute(t, "e1", true)), "gonb shell:execute_request:")
	expect(t, "queued", append(s.ClientRequest(execute(t, "e2", true)), s.ClientRequest(execute(t, "e3", true))...))
	if s.Queued() != 2 {
		t.Fatalf("queued %d, want 2", s.Queued())
	}
	s.GonbIOPub(stream(t, "e1", "stderr", "panic: cell failed "))
	s.GonbIOPub(stream(t, "e1", "stderr", "on purpose\n\ngoroutine 1 [running]:\nmain.main()\n"))
	expect(t, "exit line", s.GonbIOPub(stream(t, "e1", "stderr", "exit status 2\n")), "client iopub:stream:e1")
	// The idle status may overtake the reply: they come on different sockets.
	expect(t, "idle first", s.GonbIOPub(status(t, "e1", "idle")))
	out := s.GonbReply(reply(t, "e1", "ok", 7))
	expect(t, "reply", out,
		"client iopub:error:e1",
		"client shell:execute_reply:e1:error",
		"client iopub:status:e1:idle",
		"client iopub:status:e2:busy", "client shell:execute_reply:e2:aborted", "client iopub:status:e2:idle",
		"client iopub:status:e3:busy", "client shell:execute_reply:e3:aborted", "client iopub:status:e3:idle",
	)
	var e struct {
		Ename, Evalue string
		Traceback     []string
		Count         int `json:"execution_count"`
	}
	if err := json.Unmarshal(out[1].Msg.Content, &e); err != nil {
		t.Fatal(err)
	}
	if e.Ename != "CellFailed" || e.Evalue != "panic: cell failed on purpose (exit status 2)" || e.Count != 7 || len(e.Traceback) != 1 {
		t.Errorf("error reply = %+v", e)
	}
	if string(out[4].Msg.Identities[0]) != "client-e2" {
		t.Errorf("aborted reply routed to %q, want the client of e2", out[4].Msg.Identities)
	}
	if s.Running() != "" || s.Queued() != 0 {
		t.Errorf("running %q, queued %d after the abort", s.Running(), s.Queued())
	}
}

func TestFailureWithoutStopOnErrorRunsTheNext(t *testing.T) {
	s := NewState(testKey)
	s.ClientRequest(execute(t, "e1", false))
	s.ClientRequest(execute(t, "e2", true))
	s.GonbIOPub(stream(t, "e1", "stderr", "^C\nsignal: interrupt\n"))
	s.GonbReply(reply(t, "e1", "ok", 1))
	out := s.GonbIOPub(status(t, "e1", "idle"))
	expect(t, "interrupted", out, "client iopub:error:e1", "client shell:execute_reply:e1:error", "client iopub:status:e1:idle",
		"gonb shell:execute_request:")
	if !strings.Contains(string(out[0].Msg.Content), `"the cell's program ended with signal: interrupt"`) {
		t.Errorf("error output: %s", out[0].Msg.Content)
	}
	if s.Running() != "e2" {
		t.Errorf("running %q, want e2", s.Running())
	}
}

// A program that exits non-zero after printing its reason has that reason as the
// error's value.
func TestExitAfterMessage(t *testing.T) {
	s := NewState(testKey)
	s.ClientRequest(execute(t, "e1", true))
	s.GonbIOPub(stream(t, "e1", "stderr", "2026/01/01 loading: no such file\n\n"))
	s.GonbIOPub(stream(t, "e1", "stderr", "exit status 1\n"))
	s.GonbReply(reply(t, "e1", "ok", 1))
	out := s.GonbIOPub(status(t, "e1", "idle"))
	if len(out) != 3 || !strings.Contains(string(out[0].Msg.Content), `"2026/01/01 loading: no such file (exit status 1)"`) {
		t.Errorf("error output: %s", out[0].Msg.Content)
	}
}

// A compile error is already an error reply from gonb: it stays as it is, and the
// queue is aborted.
func TestCompileErrorAbortsTheQueue(t *testing.T) {
	s := NewState(testKey)
	s.ClientRequest(execute(t, "e1", true))
	s.ClientRequest(execute(t, "e2", true))
	r := reply(t, "e1", "error", 3)
	s.GonbReply(r)
	out := s.GonbIOPub(status(t, "e1", "idle"))
	expect(t, "compile error", out, "client shell:execute_reply:e1:error", "client iopub:status:e1:idle",
		"client iopub:status:e2:busy", "client shell:execute_reply:e2:aborted", "client iopub:status:e2:idle")
	if out[0].Msg != r {
		t.Error("gonb's own error reply was changed")
	}
}

func TestOtherTrafficPassesWhileACellRuns(t *testing.T) {
	s := NewState(testKey)
	s.ClientRequest(execute(t, "e1", true))
	expect(t, "complete_request", s.ClientRequest(msg(t, []string{"c"}, "complete_request", "c1", "", map[string]any{})), "gonb shell:complete_request:")
	expect(t, "complete_reply", s.GonbReply(msg(t, []string{"c"}, "complete_reply", "r1", "c1", map[string]any{"status": "ok"})), "client shell:complete_reply:c1:ok")
	expect(t, "other iopub", s.GonbIOPub(status(t, "c1", "idle")), "client iopub:status:c1:idle")
	// A program that writes the exit text itself, not as a whole message, is no exit.
	s.GonbIOPub(stream(t, "e1", "stderr", "log: exit status 2\n"))
	s.GonbReply(reply(t, "e1", "ok", 1))
	expect(t, "idle", s.GonbIOPub(status(t, "e1", "idle")), "client shell:execute_reply:e1:ok", "client iopub:status:e1:idle")
}

func TestIdleLate(t *testing.T) {
	s := NewState(testKey)
	expect(t, "nothing running", s.IdleLate())
	s.ClientRequest(execute(t, "e1", true))
	s.ClientRequest(execute(t, "e2", true))
	expect(t, "no reply yet", s.IdleLate())
	s.GonbReply(reply(t, "e1", "ok", 1))
	expect(t, "late", s.IdleLate(), "client shell:execute_reply:e1:ok", "gonb shell:execute_request:")
	expect(t, "the idle comes after all", s.GonbIOPub(status(t, "e1", "idle")), "client iopub:status:e1:idle")
}

func TestParseAndSign(t *testing.T) {
	m := msg(t, []string{"id1", "id2"}, "execute_request", "x", "", map[string]string{"code": "1"})
	if len(m.Identities) != 2 || m.Type() != "execute_request" || m.ID() != "x" || m.ParentID() != "" {
		t.Errorf("parsed %+v", m)
	}
	back, err := Parse(m.Frames())
	if err != nil || !testKey.Verify(back) {
		t.Fatalf("round trip: %v", err)
	}
	back.Content = []byte(`{"code":"2"}`)
	if testKey.Verify(back) {
		t.Error("a changed message verifies")
	}
	if !Key(nil).Verify(back) {
		t.Error("an empty key should accept unsigned messages")
	}
	for _, frames := range [][][]byte{
		{[]byte("id"), []byte("{}")},
		{delimiter, nil, []byte("{}"), []byte("{}")},
		{delimiter, nil, []byte("not json"), []byte("{}"), []byte("{}"), []byte("{}")},
	} {
		if _, err := Parse(frames); err == nil {
			t.Errorf("Parse(%q) accepted", frames)
		}
	}
}
