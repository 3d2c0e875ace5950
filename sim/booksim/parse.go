package booksim

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/twintorus/twintorus/internal/userfile"
)

// MaxConfigBytes bounds a configuration file. BookSim2's largest example is 3 kB.
const MaxConfigBytes = 1 << 20

// Kind is the type of a value, as BookSim2's three tables hold them.
type Kind uint8

// The kinds of values. A key takes one or more of them (keyDef.kinds).
const (
	KindStr   Kind = 1 << iota // a name or a list
	KindInt                    // an integer
	KindFloat                  // a real
)

func (k Kind) String() string {
	var s []string
	for _, c := range []struct {
		k    Kind
		name string
	}{{KindInt, "an integer"}, {KindFloat, "a real"}, {KindStr, "a name or list"}} {
		if k&c.k != 0 {
			s = append(s, c.name)
		}
	}
	return strings.Join(s, " or ")
}

// Value is one assignment of a configuration: its kind, its value as written and as
// BookSim2 converts it, and its line.
type Value struct {
	Kind  Kind
	Text  string // as written
	Int   int
	Float float64
	Line  int
}

// Config is a parsed BookSim2 configuration: for each key, the last value of each
// kind it was given (BookSim2 keeps one table per kind, so a string and a number
// given to the same key both stay).
type Config struct {
	File   string
	values map[string]map[Kind]Value
	order  []string // keys in order of first appearance
}

// Error is an error in a configuration: the file, the line (0 when the key was not
// given, and so has BookSim2's default) and the key. It prints on one line.
type Error struct {
	File string
	Line int
	Key  string
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Key != "" {
		fmt.Fprintf(&b, ": %s", e.Key)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ReadFile reads and parses a configuration file (see Parse).
func ReadFile(path string) (*Config, error) {
	data, err := userfile.ReadFile(path, MaxConfigBytes)
	if err != nil {
		return nil, fmt.Errorf("read BookSim2 configuration: %w", err)
	}
	return Parse(path, data)
}

// Parse reads a configuration in BookSim2's syntax (see the package documentation);
// file names it in errors.
func Parse(file string, data []byte) (*Config, error) {
	if len(data) > MaxConfigBytes {
		return nil, &Error{File: file, Err: fmt.Errorf("%d bytes: a configuration is at most %d bytes", len(data), MaxConfigBytes)}
	}
	lx := lexer{src: data, line: 1}
	c := &Config{File: file, values: map[string]map[Kind]Value{}}
	commands := 0
	for {
		key, err := lx.next()
		if err != nil {
			return nil, &Error{File: file, Line: lx.line, Err: err}
		}
		if key.kind == tokEOF {
			break
		}
		if key.kind != tokStr {
			return nil, &Error{File: file, Line: key.line, Err: fmt.Errorf("syntax error: a command starts with a key name, not %s (write KEY = VALUE;)", key)}
		}
		eq, err := lx.next()
		if err != nil {
			return nil, &Error{File: file, Line: lx.line, Err: err}
		}
		if eq.kind != tokChar || eq.text != "=" {
			return nil, &Error{File: file, Line: eq.line, Key: key.text, Err: fmt.Errorf("syntax error: expected = after the key, got %s", eq)}
		}
		val, err := lx.next()
		if err != nil {
			return nil, &Error{File: file, Line: lx.line, Err: err}
		}
		var v Value
		switch val.kind {
		case tokStr:
			v = Value{Kind: KindStr, Text: val.text}
		case tokInt:
			n, err := strconv.ParseInt(val.text, 10, 32)
			if err != nil {
				return nil, &Error{File: file, Line: val.line, Key: key.text, Err: fmt.Errorf("integer %s is out of range: accepted are %d to %d", val.text, math.MinInt32, math.MaxInt32)}
			}
			v = Value{Kind: KindInt, Text: val.text, Int: int(n)}
		case tokFloat:
			f, err := strconv.ParseFloat(val.text, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return nil, &Error{File: file, Line: val.line, Key: key.text, Err: fmt.Errorf("bad real %s", val.text)}
			}
			if math.IsInf(f, 0) {
				return nil, &Error{File: file, Line: val.line, Key: key.text, Err: fmt.Errorf("real %s is out of range", val.text)}
			}
			v = Value{Kind: KindFloat, Text: val.text, Float: f}
		default:
			return nil, &Error{File: file, Line: val.line, Key: key.text, Err: fmt.Errorf("syntax error: expected a value (a number, a name or a {list} without spaces) after =, got %s", val)}
		}
		v.Line = val.line
		semi, err := lx.next()
		if err != nil {
			return nil, &Error{File: file, Line: lx.line, Err: err}
		}
		if semi.kind != tokChar || semi.text != ";" {
			return nil, &Error{File: file, Line: semi.line, Key: key.text, Err: fmt.Errorf("syntax error: expected ; after the value, got %s", semi)}
		}
		if err := c.assign(key.text, v); err != nil {
			return nil, &Error{File: file, Line: key.line, Key: key.text, Err: err}
		}
		commands++
	}
	if commands == 0 {
		return nil, &Error{File: file, Line: lx.line, Err: errors.New("syntax error: no command; BookSim2's grammar needs at least one KEY = VALUE;")}
	}
	return c, nil
}

// assign stores a value as BookSim2's Configuration::Assign does: into the table of
// its kind, if the key is there.
func (c *Config) assign(key string, v Value) error {
	def, ok := lookupKey(key)
	if !ok {
		return fmt.Errorf("unknown key: BookSim2 has no such key (it refuses it too)%s", suggest(key))
	}
	if def.kinds&v.Kind == 0 {
		hint := ""
		switch {
		case def.kinds&KindFloat != 0 && v.Kind == KindInt:
			hint = fmt.Sprintf(" (write %s.0)", v.Text)
		}
		return fmt.Errorf("= %s is %s, but BookSim2 takes %s for this key and refuses it%s", v.Text, v.Kind, def.kinds, hint)
	}
	m := c.values[key]
	if m == nil {
		m = map[Kind]Value{}
		c.values[key] = m
		c.order = append(c.order, key)
	}
	m[v.Kind] = v
	return nil
}

// suggest names known keys close to an unknown one, for a typo.
func suggest(key string) string {
	var near []string
	for _, k := range keyTable {
		if strings.Contains(k.name, key) || strings.Contains(key, k.name) && len(k.name) > 2 || editDistance(k.name, key) <= 2 {
			near = append(near, k.name)
		}
	}
	if len(near) == 0 || len(near) > 5 {
		return ""
	}
	return "; did you mean " + strings.Join(near, " or ") + "?"
}

// editDistance is Levenshtein's distance, for short names.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Keys lists the keys the configuration gave, in order of first appearance.
func (c *Config) Keys() []string { return slices.Clone(c.order) }

// Lookup returns the last value of kind k given to key.
func (c *Config) Lookup(key string, k Kind) (Value, bool) {
	v, ok := c.values[key][k]
	return v, ok
}

// Given reports whether the configuration gave key a value of any kind.
func (c *Config) Given(key string) bool { return len(c.values[key]) > 0 }

// Line is the line of key's last assignment, 0 when it was not given.
func (c *Config) Line(key string) int {
	line := 0
	for _, v := range c.values[key] {
		line = max(line, v.Line)
	}
	return line
}

// Str is the key's string as BookSim2's GetStr returns it: the last name or list
// given, or the default ("" for keys whose string form is only a list alternative).
func (c *Config) Str(key string) string {
	if v, ok := c.values[key][KindStr]; ok {
		return v.Text
	}
	def, _ := lookupKey(key)
	return def.defStr
}

// Int is the key's integer as BookSim2's GetInt returns it.
func (c *Config) Int(key string) int {
	if v, ok := c.values[key][KindInt]; ok {
		return v.Int
	}
	def, _ := lookupKey(key)
	return def.defInt
}

// Float is the key's real as BookSim2's GetFloat returns it.
func (c *Config) Float(key string) float64 {
	if v, ok := c.values[key][KindFloat]; ok {
		return v.Float
	}
	def, _ := lookupKey(key)
	return def.defFloat
}

// Tokenize splits a string value as BookSim2's tokenize_str does: a value that does
// not start with { is one element; {a,b,{c,d}} splits at the top-level commas into
// a, b and {c,d}; empty elements are dropped. It reports false for braces that do
// not balance (BookSim2 asserts).
func Tokenize(s string) ([]string, bool) {
	if s == "" {
		return nil, true
	}
	if s[0] != '{' {
		return []string{s}, true
	}
	var out []string
	start, nested := 1, 0
	for cur := 1; cur < len(s); cur++ {
		switch ch := s[cur]; {
		case ch == '{':
			nested++
		case ch == '}' && nested > 0:
			nested--
		case (ch == ',' || ch == '}') && nested == 0:
			if cur > start {
				out = append(out, s[start:cur])
			}
			start = cur + 1
		}
	}
	return out, nested == 0
}

// Token kinds of BookSim2's lexer.
type tokKind uint8

const (
	tokEOF tokKind = iota
	tokStr
	tokInt
	tokFloat
	tokChar
)

type token struct {
	kind tokKind
	text string
	line int
}

func (t token) String() string {
	switch t.kind {
	case tokEOF:
		return "the end of the file"
	case tokChar:
		return fmt.Sprintf("%q", t.text)
	}
	return t.text
}

// lexer is config.l's lexer: the longest match among its rules, the earlier rule at
// equal length.
type lexer struct {
	src  []byte
	pos  int
	line int
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// strStart and strRest are StrConst's classes; listChar the list rule's.
func strStart(c byte) bool { return isLetter(c) || c == '_' || c == '-' || c == '/' || c == '.' }
func strRest(c byte) bool {
	return strStart(c) || isDigit(c) || c == '+' || c == '(' || c == ')' || c == '{' || c == '}' || c == ','
}
func listChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '(' || c == ')' || c == '{' || c == '}' || c == ','
}

func (lx *lexer) next() (token, error) {
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			lx.pos++
			continue
		case c == '\n':
			lx.line++
			lx.pos++
			continue
		case c == '/' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '/':
			// A comment is at least as long as any name starting with //, and its rule
			// comes first.
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
			continue
		}
		return lx.token()
	}
	return token{kind: tokEOF, line: lx.line}, nil
}

// token matches every rule at pos and takes the longest, the first at equal length.
func (lx *lexer) token() (token, error) {
	s := lx.src[lx.pos:]
	best, kind := 0, tokChar
	try := func(n int, k tokKind) {
		if n > best {
			best, kind = n, k
		}
	}
	try(matchList(s), tokStr)
	try(matchInt(s), tokInt)
	try(matchFrac(s), tokFloat)
	try(matchDbl(s), tokFloat)
	try(matchStr(s), tokStr)
	if best == 0 {
		t := token{kind: tokChar, text: string(s[:1]), line: lx.line}
		lx.pos++
		if s[0] == '"' || s[0] == '\'' {
			return t, fmt.Errorf("syntax error at %s: BookSim2's configuration syntax has no quotes; write names bare, e.g. traffic = uniform;", t)
		}
		if s[0] >= 0x80 || s[0] < 0x20 || s[0] == 0x7f {
			return t, fmt.Errorf("syntax error at byte 0x%02x: BookSim2 takes printable ASCII, with spaces, tabs, carriage returns and newlines between tokens", s[0])
		}
		return t, nil
	}
	t := token{kind: kind, text: string(s[:best]), line: lx.line}
	lx.pos += best
	return t, nil
}

// matchList: \{[C]+(\,[C]+)*\}; C holds the comma, so this is { then C-characters
// up to the last } of their run, with at least one character between the braces.
func matchList(s []byte) int {
	if len(s) == 0 || s[0] != '{' {
		return 0
	}
	end := 0
	for i := 1; i < len(s) && listChar(s[i]); i++ {
		if s[i] == '}' && i >= 2 {
			end = i + 1
		}
	}
	return end
}

// matchInt: -?[0-9]+
func matchInt(s []byte) int {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == i {
		return 0
	}
	return j
}

// matchFrac: -?[0-9]*\.[0-9]+
func matchFrac(s []byte) int {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i >= len(s) || s[i] != '.' {
		return 0
	}
	j := i + 1
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == i+1 {
		return 0
	}
	return j
}

// matchDbl: -?({Digit}*\.)?{Digit}+{Exponent}?, the longest way.
func matchDbl(s []byte) int {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func(at int) int {
		j := at
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		return j - at
	}
	// Without the optional part: digits, then an optional exponent.
	mant := func(at int) int {
		n := digits(at)
		if n == 0 {
			return -1
		}
		return at + n
	}
	best := 0
	for _, at := range []int{i, -1} {
		var end int
		if at >= 0 {
			end = mant(at)
		} else {
			// ({Digit}*\.) then {Digit}+
			j := i + digits(i)
			if j >= len(s) || s[j] != '.' {
				continue
			}
			end = mant(j + 1)
		}
		if end < 0 {
			continue
		}
		// Exponent: [eE][+-]?{Digit}+
		if end < len(s) && (s[end] == 'e' || s[end] == 'E') {
			k := end + 1
			if k < len(s) && (s[k] == '+' || s[k] == '-') {
				k++
			}
			if n := digits(k); n > 0 {
				end = k + n
			}
		}
		best = max(best, end)
	}
	return best
}

// matchStr: [A-Za-z_\-/\.][A-Za-z0-9_\-/\.\+(\{\,)\}]*
func matchStr(s []byte) int {
	if len(s) == 0 || !strStart(s[0]) {
		return 0
	}
	i := 1
	for i < len(s) && strRest(s[i]) {
		i++
	}
	return i
}
