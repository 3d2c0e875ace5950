package relay

import (
	"bytes"
	"cmp"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// delimiter separates a message's routing identities from its body (Jupyter's
// wire protocol).
var delimiter = []byte("<IDS|MSG>")

// Message is one Jupyter message as it travels: routing identities, then the
// signature and the four JSON parts, then any binary buffers. The JSON parts are kept
// as raw bytes so that a message passed on is byte for byte what arrived.
type Message struct {
	Identities [][]byte
	Signature  []byte
	Header     json.RawMessage
	Parent     json.RawMessage
	Metadata   json.RawMessage
	Content    json.RawMessage
	Buffers    [][]byte

	header header // decoded Header
	parent header // decoded Parent (zero for none)
}

// header holds the header fields the relay reads.
type header struct {
	MsgID   string `json:"msg_id"`
	MsgType string `json:"msg_type"`
	Session string `json:"session"`
	Version string `json:"version"`
}

// Parse reads a message from its frames; it checks the structure and decodes the
// headers, but not the signature (see Key.Verify).
func Parse(frames [][]byte) (*Message, error) {
	i := 0
	for i < len(frames) && !bytes.Equal(frames[i], delimiter) {
		i++
	}
	if i == len(frames) {
		return nil, errors.New("relay: message without the <IDS|MSG> delimiter")
	}
	if len(frames) < i+6 {
		return nil, fmt.Errorf("relay: message with %d frames after the delimiter, want at least 5", len(frames)-i-1)
	}
	m := &Message{
		Identities: frames[:i],
		Signature:  frames[i+1],
		Header:     frames[i+2],
		Parent:     frames[i+3],
		Metadata:   frames[i+4],
		Content:    frames[i+5],
		Buffers:    frames[i+6:],
	}
	if err := json.Unmarshal(m.Header, &m.header); err != nil {
		return nil, fmt.Errorf("relay: message header: %w", err)
	}
	if err := json.Unmarshal(m.Parent, &m.parent); err != nil {
		return nil, fmt.Errorf("relay: message parent header: %w", err)
	}
	return m, nil
}

// Frames returns the message as frames to send, identities first.
func (m *Message) Frames() [][]byte {
	out := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	out = append(out, m.Identities...)
	out = append(out, delimiter, m.Signature, m.Header, m.Parent, m.Metadata, m.Content)
	return append(out, m.Buffers...)
}

// Type is the message type, e.g. "execute_request".
func (m *Message) Type() string { return m.header.MsgType }

// ID is the message id.
func (m *Message) ID() string { return m.header.MsgID }

// ParentID is the id of the message this one answers, or "".
func (m *Message) ParentID() string { return m.parent.MsgID }

// Key signs and verifies messages: HMAC-SHA256 over the four JSON parts, the only
// scheme Jupyter uses by default and the only one gonb accepts. An empty key means
// unsigned messages.
type Key []byte

// Sign sets the message's signature.
func (k Key) Sign(m *Message) {
	if len(k) == 0 {
		m.Signature = []byte{}
		return
	}
	m.Signature = []byte(hex.EncodeToString(k.mac(m)))
}

// Verify reports whether the message carries the right signature.
func (k Key) Verify(m *Message) bool {
	if len(k) == 0 {
		return true
	}
	got, err := hex.DecodeString(string(m.Signature))
	return err == nil && hmac.Equal(got, k.mac(m))
}

func (k Key) mac(m *Message) []byte {
	h := hmac.New(sha256.New, k)
	for _, part := range [][]byte{m.Header, m.Parent, m.Metadata, m.Content} {
		h.Write(part)
	}
	return h.Sum(nil)
}

// newMessage makes a message of the given type in answer to parent, in parent's
// session (or session if it has none, as gonb does), with content (marshalled to JSON), routed to identities.
func newMessage(msgType, session string, parent *Message, identities [][]byte, content any) (*Message, error) {
	h := struct {
		MsgID    string `json:"msg_id"`
		MsgType  string `json:"msg_type"`
		Session  string `json:"session"`
		Username string `json:"username"`
		Date     string `json:"date"`
		Version  string `json:"version"`
	}{newID(), msgType, cmp.Or(parent.header.Session, session), "kernel", time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"), "5.3"}
	hb, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	cb, err := json.Marshal(content)
	if err != nil {
		return nil, err
	}
	m := &Message{Identities: identities, Header: hb, Parent: parent.Header, Metadata: json.RawMessage("{}"), Content: cb}
	if err := json.Unmarshal(hb, &m.header); err != nil {
		return nil, err
	}
	m.parent = parent.header
	return m, nil
}

// newID is a random UUID (version 4), as Jupyter's message ids are.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
