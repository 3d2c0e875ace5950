package booksim

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func mustParse(t *testing.T, file, text string) *Config {
	t.Helper()
	c, err := Parse(file, []byte(text))
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return c
}

func readExample(t *testing.T, name string) *Config {
	t.Helper()
	c, err := ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// value asserts a key's value of one kind, as written and on its line.
func value(t *testing.T, c *Config, key string, k Kind, text string, line int) {
	t.Helper()
	v, ok := c.Lookup(key, k)
	if !ok {
		t.Errorf("%s: %s has no %s value", c.File, key, k)
		return
	}
	if v.Text != text || v.Line != line {
		t.Errorf("%s: %s = %q on line %d, want %q on line %d", c.File, key, v.Text, v.Line, text, line)
	}
}

// BookSim2's example configurations parse to what they say, key by key (values and
// lines read off the files).
func TestParseBookSimExamples(t *testing.T) {
	c := readExample(t, "torus88")
	want := []string{"topology", "k", "n", "routing_function", "num_vcs", "traffic", "injection_rate"}
	if got := c.Keys(); !slices.Equal(got, want) {
		t.Errorf("torus88 keys %v, want %v", got, want)
	}
	value(t, c, "topology", KindStr, "torus", 31)
	value(t, c, "k", KindInt, "8", 32)
	value(t, c, "n", KindInt, "2", 33)
	value(t, c, "routing_function", KindStr, "dim_order", 35)
	value(t, c, "num_vcs", KindInt, "2", 37)
	value(t, c, "traffic", KindStr, "uniform", 39)
	value(t, c, "injection_rate", KindFloat, "0.15", 40)
	if c.Float("injection_rate") != 0.15 || c.Int("k") != 8 || c.Int("vc_buf_size") != 8 || c.Str("sim_type") != "latency" {
		t.Errorf("torus88: injection_rate %v, k %d, vc_buf_size %d (default 8), sim_type %q (default latency)",
			c.Float("injection_rate"), c.Int("k"), c.Int("vc_buf_size"), c.Str("sim_type"))
	}

	c = readExample(t, "mesh88_lat")
	value(t, c, "routing_function", KindStr, "dor", 37)
	value(t, c, "wait_for_tail_credit", KindInt, "1", 42)
	value(t, c, "credit_delay", KindInt, "2", 49)
	value(t, c, "routing_delay", KindInt, "0", 50)
	value(t, c, "input_speedup", KindInt, "2", 54)
	value(t, c, "internal_speedup", KindFloat, "1.0", 56)
	value(t, c, "packet_size", KindInt, "20", 61)
	value(t, c, "injection_rate", KindFloat, "0.005", 67)
	if c.Int("packet_size") != 20 || c.Float("internal_speedup") != 1 {
		t.Errorf("mesh88_lat: packet_size %d, internal_speedup %v", c.Int("packet_size"), c.Float("internal_speedup"))
	}

	c = readExample(t, "fattree_config")
	value(t, c, "hold_switch_for_packet", KindInt, "1", 28)
	value(t, c, "vc_allocator", KindStr, "separable_input_first", 38)
	value(t, c, "injection_rate_uses_flits", KindInt, "1", 68)
	value(t, c, "topology", KindStr, "fattree", 70)
	// watch_out=-; at the end, with no newline: - is a name.
	value(t, c, "watch_out", KindStr, "-", 76)

	c = readExample(t, "flatflyconfig")
	value(t, c, "c", KindInt, "4", 78)
	value(t, c, "routing_function", KindStr, "ran_min", 91)
	value(t, c, "write_request_end_vc", KindInt, "3", 113)
	value(t, c, "sim_type", KindStr, "latency", 116)

	c = readExample(t, "anynet_config")
	value(t, c, "network_file", KindStr, "anynet_file", 36)
	value(t, c, "vc_buf_size", KindInt, "3", 50)
}

// The lexer and grammar, fact by fact from config.l and config.y.
func TestParseSyntax(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		key        string
		kind       Kind
		want       string // the value as written
	}{
		{"no spaces", "k=4;n=3;", "n", KindInt, "3"},
		{"tabs and CR", "k\t=\t4\r\n;", "k", KindInt, "4"},
		{"later overrides", "k = 4; k = 16;", "k", KindInt, "16"},
		{"real with exponent", "injection_rate = 1e-1;", "injection_rate", KindFloat, "1e-1"},
		{"real without leading digit", "injection_rate = .25;", "injection_rate", KindFloat, ".25"},
		{"negative integer", "seed = -5;", "seed", KindInt, "-5"},
		{"name with parentheses and a list", "traffic = hotspot({0,63},{1,1});", "traffic", KindStr, "hotspot({0,63},{1,1})"},
		{"list", "injection_rate = {0.1,0.2};", "injection_rate", KindStr, "{0.1,0.2}"},
		{"nested list", "packet_size = {{1,2},20};", "packet_size", KindStr, "{{1,2},20}"},
		{"a lone dash is a name", "watch_out = -;", "watch_out", KindStr, "-"},
		{"a path is a name", "network_file = ../nets/a.net;", "network_file", KindStr, "../nets/a.net"},
		{"comment after a command", "k = 4; // four\n", "k", KindInt, "4"},
		// // inside a name does not start a comment: the name is longer.
		{"slashes inside a name", "topology = torus//x\n;", "topology", KindStr, "torus//x"},
		{"-5a is a name", "seed = -5a;", "seed", KindStr, "-5a"},
		{"both kinds stay", "seed = 3; seed = time;", "seed", KindInt, "3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustParse(t, "t.cfg", tc.text)
			v, ok := c.Lookup(tc.key, tc.kind)
			if !ok || v.Text != tc.want {
				t.Errorf("%s: got %+v (%v), want %q", tc.key, v, ok, tc.want)
			}
		})
	}
	if c := mustParse(t, "t.cfg", "injection_rate = 1e-1;"); c.Float("injection_rate") != 0.1 {
		t.Errorf("1e-1 read as %v", c.Float("injection_rate"))
	}
}

// Syntax and type errors: one line naming the file and line, saying what is wrong.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"empty file", "", []string{"t.cfg:1:", "no command"}},
		{"only comments", "// nothing\n// here\n", []string{"t.cfg:3:", "no command"}},
		{"unknown key", "k = 8;\n\nlimit = 64;", []string{"t.cfg:3:", "limit", "unknown key"}},
		{"typo", "num_vc = 4;", []string{"num_vc", "did you mean num_vcs"}},
		{"real for an integer key", "k = 8.0;", []string{"t.cfg:1:", "k", "an integer"}},
		{"integer for a real key", "injection_rate = 1;", []string{"injection_rate", "write 1.0"}},
		{"name for an integer key", "k = eight;", []string{"k", "a name or list", "takes an integer"}},
		{"quotes", `traffic = "uniform";`, []string{"t.cfg:1:", "no quotes"}},
		{"space inside a list", "injection_rate = {0.1, 0.2};", []string{"syntax error"}},
		{"missing semicolon", "topology = torus\nk = 8;", []string{"t.cfg:2:", "expected ;"}},
		{"missing equals", "k 8;", []string{"expected ="}},
		{"block comment", "/* no */ k = 8;", []string{"syntax error"}},
		{"integer out of range", "k = 99999999999;", []string{"out of range"}},
		{"real out of range", "injection_rate = 1e999;", []string{"out of range"}},
		{"empty list", "traffic = {};", []string{"syntax error"}},
		{"non-ASCII", "k = 8;\ntraffic = unif\xc3\xb6rm;", []string{"t.cfg:2:", "ASCII"}},
		{"form feed", "k = 8;\f", []string{"t.cfg:1:", "0x0c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.cfg", []byte(tc.text))
			if err == nil {
				t.Fatalf("Parse(%q) succeeded", tc.text)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error spans lines: %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
			var e *Error
			if !errors.As(err, &e) || e.File != "t.cfg" {
				t.Errorf("error %v is not an *Error naming the file", err)
			}
		})
	}
}

// tokenize_str's splitting.
func TestTokenize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"uniform", []string{"uniform"}},
		{"{a,b}", []string{"a", "b"}},
		{"{a,{b,c},d}", []string{"a", "{b,c}", "d"}},
		{"{,a,,b,}", []string{"a", "b"}},
		{"hotspot({1,2})", []string{"hotspot({1,2})"}},
	} {
		got, ok := Tokenize(tc.in)
		if !ok || !slices.Equal(got, tc.want) {
			t.Errorf("Tokenize(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
	// BookSim2 checks only that nested braces close: {a,{b} passes, and drops {b},
	// which no top-level comma or brace ends; {a,{b fails.
	if got, ok := Tokenize("{a,{b}"); !ok || !slices.Equal(got, []string{"a"}) {
		t.Errorf("Tokenize({a,{b}) = %q, %v", got, ok)
	}
	if _, ok := Tokenize("{a,{b"); ok {
		t.Error("Tokenize accepted unbalanced braces")
	}
}

// The key table: one entry per key, each refusal and each ignored key saying why,
// and docs/booksim.md listing every key.
func TestKeyTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "booksim.md"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, k := range keyTable {
		if seen[k.name] {
			t.Errorf("%s listed twice", k.name)
		}
		seen[k.name] = true
		if (k.role == mapped) != (k.note == "") {
			t.Errorf("%s: a mapped key has no note, every other key one", k.name)
		}
		if !strings.Contains(string(doc), "| `"+k.name+"` |") {
			t.Errorf("docs/booksim.md has no row for %s", k.name)
		}
	}
	if len(keyTable) != 121 {
		t.Errorf("%d keys; BookSim2's BookSimConfig declares 121 outside TRACK_FLOWS and TRACK_CREDITS", len(keyTable))
	}
}

// FuzzParseBookSim: any input parses or fails with a one-line error, never a panic;
// what parses maps or fails the same way.
func FuzzParseBookSim(f *testing.F) {
	for _, name := range []string{"torus88", "mesh88_lat", "fattree_config", "flatflyconfig", "anynet_config", "meshconfig"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("traffic = hotspot({0,63},{1,1}); routing_function = dor; topology = mesh;"))
	f.Add([]byte("injection_rate = {0.3}; packet_size = {{1,2}};"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("f.cfg", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
			return
		}
		if _, err := Map(c); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("error spans lines: %q", err)
		}
	})
}
