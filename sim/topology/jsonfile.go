package topology

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/internal/sysmem"
	"github.com/twintorus/twintorus/internal/userfile"
)

// MaxFileBytes is the largest network file ReadJSONFile and ReadAnynetFile read.
const MaxFileBytes = 1 << 30

// WriteJSONFile saves the network in its JSON form (WriteJSON) at path; file:PATH
// reads it back.
func (n *Network) WriteJSONFile(path string) error {
	var buf bytes.Buffer
	if err := n.WriteJSON(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("saving %s: %w", n, err)
	}
	return nil
}

// ReadJSONFile reads a network saved by WriteJSONFile (or written in its form, see
// NetworkJSON). The network's String is file:PATH. Errors give the file and line.
func ReadJSONFile(path string) (*Network, error) { return readPath(path, FamilyFile, readJSON) }

// ReadJSON reads a network in WriteJSON's form; name is used in errors and as the
// network's String.
func ReadJSON(r io.Reader, name string) (*Network, error) { return readNamed(r, name, readJSON) }

// readPath reads a network file of a file family with its parser.
func readPath(path string, f Family, parse func(data []byte, name string) (*Network, error)) (*Network, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	net, err := parse(data, path)
	if err != nil {
		return nil, err
	}
	net.name = string(f) + ":" + path
	net.spec = Spec{Family: f, Path: path}
	return net, nil
}

// readNamed reads a network from r with a file family's parser.
func readNamed(r io.Reader, name string, parse func(data []byte, name string) (*Network, error)) (*Network, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: more than %d bytes; a network file is at most that", name, MaxFileBytes)
	}
	net, err := parse(data, name)
	if err != nil {
		return nil, err
	}
	net.name = name
	return net, nil
}

// readFile reads a network file whole: a regular file of at most MaxFileBytes (a
// device such as /dev/zero would be read without end, and a named pipe's open would
// wait for a writer).
func readFile(path string) ([]byte, error) {
	data, err := userfile.ReadFile(path, MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("network file: %w", err)
	}
	return data, nil
}

// The JSON reader decodes value by value so that every switch, port, link and PE
// keeps the line it came from; pointers tell absent fields from zeros.
type (
	switchIn struct {
		line         int
		id, node     *int
		card         *int
		coord        []int
		hasCoord     bool
		label        string
		class        string
		group        *int
		ports        []portJSONIn
		portLines    []int
		portsPresent bool
	}
	// portJSONIn is PortJSON with optional fields.
	portJSONIn struct {
		Index    *int    `json:"index"`
		Name     *string `json:"name"`
		Kind     *string `json:"kind"`
		Dim      *int    `json:"dim"`
		Dir      *int    `json:"dir"`
		Label    *string `json:"label"`
		Latency  *int    `json:"latency"`
		Length   *int    `json:"length"`
		Peer     *int    `json:"peer"`
		PeerPort *int    `json:"peer_port"`
		From     *int    `json:"from"`
		FromPort *int    `json:"from_port"`
		Terminal *int    `json:"terminal"`
	}
	linkJSONIn struct {
		A      *int    `json:"a"`
		PA     *int    `json:"pa"`
		B      *int    `json:"b"`
		PB     *int    `json:"pb"`
		Kind   *string `json:"kind"`
		OneWay *bool   `json:"one_way"`
	}
	terminalJSONIn struct {
		ID     *int `json:"id"`
		Switch *int `json:"switch"`
		Port   *int `json:"port"`
	}
)

// jsonIn walks a JSON document value by value, knowing each value's line.
type jsonIn struct {
	dec      *json.Decoder
	data     []byte
	name     string
	newlines []int32 // offsets of '\n' (a file is at most MaxFileBytes)
	// limit is the memory reading may take; elems counts the switches, ports, links
	// and terminals read so far, each holding about elemBytes until the network is
	// built.
	limit uint64
	elems int64
}

// elemBytes is what reading holds per switch, port, link or terminal, besides the
// file: the decoded record, its fields and line, and its share of the network being
// built (measured: 230 bytes an element reading torus:32x32x32's file, live; twice
// that for the collector's headroom).
const elemBytes = 512

func newJSONIn(data []byte, name string, limit uint64) *jsonIn {
	r := &jsonIn{data: data, name: name, dec: json.NewDecoder(bytes.NewReader(data)), limit: limit}
	r.dec.DisallowUnknownFields()
	r.dec.UseNumber()
	r.newlines = make([]int32, 0, bytes.Count(data, []byte{'\n'}))
	for i, c := range data {
		if c == '\n' {
			r.newlines = append(r.newlines, int32(i))
		}
	}
	return r
}

// element counts one more switch, port, link or terminal read at line, and refuses
// the file once reading it would pass the memory limit: a file of small objects took
// about 15 times its size, so a 1 GiB file 16 GB.
func (r *jsonIn) element(line int) error {
	r.elems++
	if r.limit > 0 && uint64(len(r.data))+4*uint64(len(r.newlines))+uint64(r.elems)*elemBytes > r.limit {
		return r.errorf(line, "reading this network needs more than the %s of memory this machine allows (%d switches, ports, links and terminals so far, about %d bytes each, besides the file): accepted are networks that fit", mib(r.limit), r.elems, elemBytes)
	}
	return nil
}

// mib prints a memory size in MiB, or GiB from 10 GiB.
func mib(b uint64) string {
	if b >= 10<<30 {
		return fmt.Sprintf("%.0f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
}

// line is the line of byte offset off.
func (r *jsonIn) line(off int64) int {
	return sort.Search(len(r.newlines), func(i int) bool { return int64(r.newlines[i]) >= off }) + 1
}

// next is the line where the next value starts.
func (r *jsonIn) next() int { return r.line(int64(r.nextOffset())) }

// nextOffset is the offset where the next value starts.
func (r *jsonIn) nextOffset() int {
	off := int(r.dec.InputOffset())
	for off < len(r.data) && strings.IndexByte(" \t\r\n,:", r.data[off]) >= 0 {
		off++
	}
	return off
}

func (r *jsonIn) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", r.name, line, fmt.Sprintf(format, args...))
}

// wrap turns a decoding error into one line with the file and line.
func (r *jsonIn) wrap(err error, line int) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return r.errorf(r.line(syn.Offset), "JSON syntax: %s", syn.Error())
	case errors.As(err, &typ):
		return r.errorf(r.line(typ.Offset), "%s: want %s, got JSON %s", typ.Field, typ.Type, typ.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return r.errorf(r.line(int64(len(r.data))), "the JSON ends too early (truncated file?)")
	}
	return r.errorf(line, "%s", strings.TrimPrefix(err.Error(), "json: "))
}

func (r *jsonIn) delim(want json.Delim, what string) error {
	line := r.next()
	tok, err := r.dec.Token()
	if err != nil {
		return r.wrap(err, line)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		got := fmt.Sprint(tok)
		if str, ok := tok.(string); ok {
			got = strconv.Quote(str) // a string token may hold a newline
		}
		return r.errorf(line, "%s: want %q, got %s", what, string(want), got)
	}
	return nil
}

// object reads {"key": value, ...}, calling fn for each key to read its value.
func (r *jsonIn) object(what string, fn func(key string, line int) error) error {
	if err := r.delim('{', what); err != nil {
		return err
	}
	var seen []string // an object's keys are few
	for r.dec.More() {
		line := r.next()
		tok, err := r.dec.Token()
		if err != nil {
			return r.wrap(err, line)
		}
		key, _ := tok.(string)
		if slices.Contains(seen, key) {
			return r.errorf(line, "%s: %q is given twice", what, key)
		}
		seen = append(seen, key)
		if err := fn(key, r.next()); err != nil {
			return err
		}
	}
	return r.delim('}', what)
}

// array reads [value, ...], calling fn for each element with its line.
func (r *jsonIn) array(what string, fn func(i, line int) error) error {
	if err := r.delim('[', what); err != nil {
		return err
	}
	for i := 0; r.dec.More(); i++ {
		if err := fn(i, r.next()); err != nil {
			return err
		}
	}
	return r.delim(']', what)
}

func (r *jsonIn) value(v any, line int) error {
	if err := r.dec.Decode(v); err != nil {
		return r.wrap(err, line)
	}
	return nil
}

// record decodes a JSON object into the struct v and refuses a key given twice,
// which encoding/json would settle silently by keeping the last.
func (r *jsonIn) record(v any, line int, what string) error {
	start := r.nextOffset()
	if err := r.value(v, line); err != nil {
		return err
	}
	if key, dup := duplicateKey(r.data[start:r.dec.InputOffset()]); dup {
		return r.errorf(line, "%s: %q is given twice", what, key)
	}
	return nil
}

// duplicateKey finds a key given twice among the top-level keys of a JSON object's
// text, comparing them as encoding/json matches keys to fields: unescaped and
// without regard to case ("peer" and "Peer" both set Peer).
func duplicateKey(obj []byte) (string, bool) {
	var keys [][]byte
	depth := 0
	for i := 0; i < len(obj); i++ {
		switch obj[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			j, escaped := i+1, false
			for ; j < len(obj) && obj[j] != '"'; j++ {
				if obj[j] == '\\' {
					j++
					escaped = true
				}
			}
			if j >= len(obj) {
				return "", false // the decoder has read it: cannot happen
			}
			k := j + 1
			for k < len(obj) && strings.IndexByte(" \t\r\n", obj[k]) >= 0 {
				k++
			}
			if depth == 1 && k < len(obj) && obj[k] == ':' {
				key := obj[i+1 : j]
				if escaped {
					var s string
					if json.Unmarshal(obj[i:j+1], &s) == nil {
						key = []byte(s)
					}
				}
				for _, x := range keys {
					if bytes.EqualFold(x, key) {
						return string(key), true
					}
				}
				keys = append(keys, key)
			}
			i = j
		}
	}
	return "", false
}

// fileNet is everything a JSON network file says, with lines.
type fileNet struct {
	radix                     []int
	perNode                   int
	radixLine, terminalsLine  int
	switches                  []switchIn
	links                     []linkJSONIn
	linkLines                 []int
	terminals                 []terminalJSONIn
	termLines                 []int
	hasSwitches, hasTerminals bool
}

func readJSON(data []byte, name string) (*Network, error) {
	return readJSONLimited(data, name, sysmem.Limit())
}

// readJSONLimited is readJSON taking at most limit bytes of memory (0: no limit).
func readJSONLimited(data []byte, name string, limit uint64) (*Network, error) {
	r := newJSONIn(data, name, limit)
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, r.errorf(1, "empty file; a network file is the JSON object Network.WriteJSON writes")
	}
	f := fileNet{perNode: 1}
	err := r.object("a network", func(key string, line int) error {
		switch key {
		case "topology", "family", "config":
			var s string
			return r.value(&s, line)
		case "radix":
			f.radixLine = line
			return r.value(&f.radix, line)
		case "switches_per_node":
			f.radixLine = line
			return r.value(&f.perNode, line)
		case "switches":
			f.hasSwitches = true
			return r.array("switches", func(i, line int) error {
				if i >= MaxSwitches {
					return r.errorf(line, "more than %d switches", MaxSwitches)
				}
				if err := r.element(line); err != nil {
					return err
				}
				sw, err := r.readSwitch(line)
				f.switches = append(f.switches, sw)
				return err
			})
		case "links":
			return r.array("links", func(i, line int) error {
				if err := r.element(line); err != nil {
					return err
				}
				var l linkJSONIn
				f.links, f.linkLines = append(f.links, l), append(f.linkLines, line)
				return r.record(&f.links[i], line, "a link")
			})
		case "terminals":
			f.hasTerminals, f.terminalsLine = true, line
			return r.array("terminals", func(i, line int) error {
				if err := r.element(line); err != nil {
					return err
				}
				var t terminalJSONIn
				f.terminals, f.termLines = append(f.terminals, t), append(f.termLines, line)
				return r.record(&f.terminals[i], line, "a terminal")
			})
		}
		return r.errorf(line, "unknown key %q; a network file has topology, family, radix, switches_per_node, config, switches, links and terminals", key)
	})
	if err != nil {
		return nil, err
	}
	if _, err := r.dec.Token(); err != io.EOF {
		return nil, r.errorf(r.next(), "more after the network's closing brace")
	}
	return f.build(r)
}

func (r *jsonIn) readSwitch(line int) (switchIn, error) {
	sw := switchIn{line: line}
	err := r.object("a switch", func(key string, kline int) error {
		switch key {
		case "id":
			return r.value(&sw.id, kline)
		case "node":
			return r.value(&sw.node, kline)
		case "card":
			return r.value(&sw.card, kline)
		case "coord":
			sw.hasCoord = true
			return r.value(&sw.coord, kline)
		case "label":
			return r.value(&sw.label, kline)
		case "class":
			return r.value(&sw.class, kline)
		case "group":
			return r.value(&sw.group, kline)
		case "ports":
			sw.portsPresent = true
			return r.array("ports", func(i, pline int) error {
				if i >= MaxPortsPerSwitch {
					return r.errorf(pline, "more than %d ports on one switch", MaxPortsPerSwitch)
				}
				if err := r.element(pline); err != nil {
					return err
				}
				var p portJSONIn
				sw.ports, sw.portLines = append(sw.ports, p), append(sw.portLines, pline)
				return r.record(&sw.ports[i], pline, "a port")
			})
		}
		return r.errorf(kline, "unknown key %q in a switch; a switch has id, node, coord, card, label, class, group and ports", key)
	})
	return sw, err
}

func (f *fileNet) build(r *jsonIn) (*Network, error) {
	if !f.hasSwitches || len(f.switches) == 0 {
		return nil, r.errorf(1, "no switches; a network file lists them under \"switches\"")
	}
	b := NewBuilder(r.name)
	gridSw := 0
	if len(f.radix) > 0 {
		n := f.perNode
		for _, k := range f.radix {
			if k < 1 || k > MaxRadix {
				return nil, r.errorf(f.radixLine, "radix %v: accepted are 1 to %d nodes per dimension", f.radix, MaxRadix)
			}
			if n *= k; n > len(f.switches) {
				return nil, r.errorf(f.radixLine, "radix %v with %d switches per node makes more grid switches than the %d the file lists", f.radix, f.perNode, len(f.switches))
			}
		}
		gridSw = n
		b.Grid(f.radix, f.perNode)
		if err := r.buildErr(b.err(), f); err != nil {
			return nil, err
		}
	}
	terminalPorts := 0
	for s, sw := range f.switches {
		for p, pt := range sw.ports {
			if pt.Kind == nil || (*pt.Kind != "external" && *pt.Kind != "internal" && *pt.Kind != "terminal") {
				return nil, r.errorf(sw.portLines[p], "port %d of switch %d has kind %q; accepted are external, internal and terminal", p, s, deref(pt.Kind, ""))
			}
			if *pt.Kind == "terminal" {
				terminalPorts++
			}
		}
	}
	for s, sw := range f.switches { // PE ids are dense: refuse impossible ones before allocating
		for p, pt := range sw.ports {
			if pt.Terminal != nil && (*pt.Terminal < -1 || *pt.Terminal >= terminalPorts) {
				return nil, r.errorf(sw.portLines[p], "port %d of switch %d says terminal %d; the file has %d terminal ports, so PEs 0 to %d", p, s, *pt.Terminal, terminalPorts, terminalPorts-1)
			}
		}
	}
	// PEs by the terminal port they claim, to attach them as the ports are made.
	peAt := map[PortRef]int{}
	for i, t := range f.terminals {
		line := f.termLines[i]
		if t.Switch == nil || t.Port == nil {
			return nil, r.errorf(line, "terminal %d is on no switch: give its switch and port", i)
		}
		id := i
		if t.ID != nil && *t.ID != i {
			return nil, r.errorf(line, "terminal %d says id %d; terminals are listed in id order from 0", i, *t.ID)
		}
		ref := PortRef{*t.Switch, *t.Port}
		if *t.Switch < 0 || *t.Switch >= len(f.switches) || *t.Port < 0 || *t.Port >= len(f.switches[*t.Switch].ports) {
			return nil, r.errorf(line, "terminal %d is on %s, which does not exist", i, ref)
		}
		if k := f.switches[ref.Switch].ports[ref.Port].Kind; k == nil || *k != "terminal" {
			return nil, r.errorf(line, "terminal %d is on %s, which is not a terminal port", i, ref)
		}
		if j, dup := peAt[ref]; dup {
			return nil, r.errorf(line, "terminals %d and %d are both on %s", j, i, ref)
		}
		peAt[ref] = id
	}
	for s, sw := range f.switches {
		if err := f.addSwitch(r, b, s, gridSw, sw, peAt); err != nil {
			return nil, err
		}
	}
	for i, l := range f.links {
		line := f.linkLines[i]
		for _, end := range []struct {
			name string
			v    *int
		}{{"a", l.A}, {"pa", l.PA}, {"b", l.B}, {"pb", l.PB}} {
			if end.v == nil {
				return nil, r.errorf(line, "link %d has no %s: a link names both ends, a, pa, b and pb", i, end.name)
			}
		}
		if l.A != nil && *l.A >= 0 && *l.A < len(f.switches) && *l.PA >= 0 && *l.PA < len(f.switches[*l.A].ports) {
			if k := f.switches[*l.A].ports[*l.PA].Kind; l.Kind != nil && k != nil && *l.Kind != *k {
				return nil, r.errorf(line, "link %d is %s but joins %s ports", i, *l.Kind, *k)
			}
		}
		a, z := PortRef{*l.A, *l.PA}, PortRef{*l.B, *l.PB}
		if l.OneWay != nil && *l.OneWay {
			b.ConnectOneWay(a, z)
		} else {
			b.Connect(a, z)
		}
	}
	net, err := b.build()
	if err != nil {
		return nil, r.buildErr(err, f)
	}
	return net, f.check(r, net)
}

func (f *fileNet) addSwitch(r *jsonIn, b *Builder, s, gridSw int, sw switchIn, peAt map[PortRef]int) error {
	if sw.id != nil && *sw.id != s {
		return r.errorf(sw.line, "switch %d says id %d; switches are listed in id order from 0", s, *sw.id)
	}
	if s < gridSw {
		node, card := s/f.perNode, s%f.perNode
		want := make([]int, len(f.radix))
		for d, k := range f.radix {
			want[d], node = node%k, node/k
		}
		if sw.hasCoord && !slices.Equal(sw.coord, want) || sw.card != nil && *sw.card != card {
			return r.errorf(sw.line, "switch %d is at %v card %d on the grid, not at %v card %d", s, want, card, sw.coord, deref(sw.card, 0))
		}
		if sw.label != "" {
			b.LabelSwitch(s, sw.label)
		}
	} else {
		if sw.hasCoord && sw.coord != nil {
			return r.errorf(sw.line, "switch %d has coordinates %v but is off the grid (the radix makes switches 0 to %d)", s, sw.coord, gridSw-1)
		}
		b.AddSwitch(sw.label)
	}
	if sw.class != "" {
		b.SetClass(s, sw.class)
	}
	if sw.group != nil {
		if *sw.group < 0 || *sw.group >= MaxSwitches {
			return r.errorf(sw.line, "group %d of switch %d: accepted are 0 to %d", *sw.group, s, MaxSwitches-1)
		}
		b.SetGroup(s, *sw.group)
	}
	for p, pt := range sw.ports {
		line := sw.portLines[p]
		if pt.Index != nil && *pt.Index != p {
			return r.errorf(line, "port %d of switch %d says index %d; ports are listed in index order from 0", p, s, *pt.Index)
		}
		role := Role{Label: deref(pt.Label, "")}
		switch *pt.Kind {
		case "terminal":
			pe, ok := peAt[PortRef{s, p}]
			if !ok && pt.Terminal != nil && *pt.Terminal >= 0 && !f.hasTerminals {
				pe, ok = *pt.Terminal, true
			}
			if !ok {
				return r.errorf(line, "port %d of switch %d is a terminal port, but no terminal is attached to it", p, s)
			}
			if pt.Terminal != nil && *pt.Terminal != pe {
				return r.errorf(line, "port %d of switch %d says terminal %d, but the terminals list puts PE %d there", p, s, *pt.Terminal, pe)
			}
			b.attach(s, pe)
			continue
		case "internal":
			role.Internal = true
		}
		if dir := deref(pt.Dir, 0); dir != 0 {
			if pt.Dim == nil {
				return r.errorf(line, "port %d of switch %d has a direction but no dim", p, s)
			}
			role.Dim, role.Dir = *pt.Dim, dir
		}
		ref := b.AddPort(s, role)
		if pt.Latency != nil {
			b.SetLatency(ref, *pt.Latency)
		}
		if pt.Length != nil {
			b.SetLength(ref, *pt.Length)
		}
		if deref(pt.Peer, 0) == -1 && deref(pt.From, -1) == -1 {
			b.Unconnected(ref) // the file says the port has no link (a mesh's boundary)
		}
	}
	return r.buildErr(b.err(), f)
}

// buildErr gives a Builder's mistake the line of what it is about.
func (r *jsonIn) buildErr(err error, f *fileNet) error {
	if err == nil {
		return nil
	}
	var be *BuildError
	line := 1
	if errors.As(err, &be) {
		switch {
		case be.Link >= 0 && be.Link < len(f.linkLines):
			line = f.linkLines[be.Link]
		case be.Port.Switch >= 0 && be.Port.Switch < len(f.switches):
			sw := f.switches[be.Port.Switch]
			line = sw.line
			if be.Port.Port >= 0 && be.Port.Port < len(sw.portLines) {
				line = sw.portLines[be.Port.Port]
			}
		case be.PE >= 0:
			line = f.terminalsLine
			if be.PE < len(f.termLines) {
				line = f.termLines[be.PE]
			}
		case be.Switch >= 0 && be.Switch < len(f.switches):
			line = f.switches[be.Switch].line
		}
		err = be
	}
	return r.errorf(line, "%s", err)
}

// check compares what ports say about their links and PEs with what was built.
func (f *fileNet) check(r *jsonIn, net *Network) error {
	for s, sw := range f.switches {
		for p, pt := range sw.ports {
			got := net.Port(s, p)
			for _, c := range []struct {
				name string
				said *int
				is   int
			}{{"peer", pt.Peer, int(got.Peer)}, {"peer_port", pt.PeerPort, int(got.PeerPort)}, {"from", pt.From, int(got.From)},
				{"from_port", pt.FromPort, int(got.FromPort)}, {"terminal", pt.Terminal, int(got.Terminal)}} {
				if c.said != nil && *c.said != c.is {
					return r.errorf(sw.portLines[p], "port %d of switch %d says %s %d, but the links and terminals make it %d", p, s, c.name, *c.said, c.is)
				}
			}
		}
	}
	return nil
}

func deref[T any](p *T, zero T) T {
	if p == nil {
		return zero
	}
	return *p
}
