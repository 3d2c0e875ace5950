package datasets

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// seedsDir is where plain-text copies of the papers may sit beside the project
// checkout. They are not part of the repository (the papers are not ours to
// distribute), so the quote check runs only where they are, and skips elsewhere.
const seedsDir = "../../shared/seeds"

func allRefs(t *testing.T) []Reference {
	t.Helper()
	all, err := AllReferences()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

func TestEveryFileParses(t *testing.T) {
	names := ReferenceNames()
	for _, want := range []string{"3dt-configurations", "3dt-vs-2d", "ndt", "5dt-extoll", "paths-and-distances", "cswitch", "kns"} {
		if !slices.Contains(names, want) {
			t.Errorf("ReferenceNames() = %v, missing %q", names, want)
		}
	}
	for _, name := range names {
		refs, err := References(name)
		if err != nil {
			t.Errorf("References(%q): %v", name, err)
			continue
		}
		if len(refs) == 0 {
			t.Errorf("References(%q): no rows", name)
		}
		if again, err := References(name + ".csv"); err != nil || len(again) != len(refs) {
			t.Errorf("References(%q.csv) = %d rows, %v; want %d rows", name, len(again), err, len(refs))
		}
	}
}

func TestUnknownNameListsKnownOnes(t *testing.T) {
	_, err := References("3dt-configuration")
	if err == nil {
		t.Fatal("References of an unknown name: no error")
	}
	for _, name := range ReferenceNames() {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not list %q", err, name)
		}
	}
	if _, err := Lookup("no-such-id"); err == nil {
		t.Error("Lookup of an unknown id: no error")
	}
}

func TestLookupFindFilter(t *testing.T) {
	r, err := Lookup("th-table1.1-C-paths")
	if err != nil {
		t.Fatal(err)
	}
	if r.Value != 49 || r.Configuration != "D" || !r.HasValue() || r.HasRange() || !r.HasConfiguration("D") {
		t.Errorf("th-table1.1-C-paths = %+v", r)
	}
	refs := MustReferences("3dt-configurations")
	bubble := Filter(refs, func(r Reference) bool { return r.Scheme == "bubble" && r.HasRange() })
	if len(bubble) < 6 {
		t.Errorf("bubble ranges in 3dt-configurations: %d rows, want at least 6", len(bubble))
	}
	if _, ok := Find(refs, "tr-7.3-bubble-250-throughput"); !ok {
		t.Error("Find: tr-7.3-bubble-250-throughput missing")
	}
}

func TestIDsUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range allRefs(t) {
		if seen[r.ID] {
			t.Errorf("duplicate id %q", r.ID)
		}
		seen[r.ID] = true
		if strings.ContainsAny(r.ID, " ,\"") {
			t.Errorf("id %q: spaces, commas or quotes", r.ID)
		}
	}
}

// sourceLines is where each source sits in the papers' plain-text copies (the seeds
// files, which are not part of the repository: [TR] on its own, and the thesis with
// [CS], [J], [DL], [nDT], [EXT] and [AR] as line ranges of one file).
var sourceLines = map[string]struct {
	file   string
	ranges [][2]int
}{
	"[TR]":  {"002_f32b538ef0624f9d.txt", [][2]int{{1, 1264}}},
	"[Th]":  {"000_147dd827e2059e74.txt", [][2]int{{1, 848}, {8802, 8939}}},
	"[J]":   {"000_147dd827e2059e74.txt", [][2]int{{2169, 3343}}},
	"[DL]":  {"000_147dd827e2059e74.txt", [][2]int{{3344, 3782}}},
	"[nDT]": {"000_147dd827e2059e74.txt", [][2]int{{3783, 6009}}},
	"[EXT]": {"000_147dd827e2059e74.txt", [][2]int{{6010, 7686}}},
	"[AR]":  {"000_147dd827e2059e74.txt", [][2]int{{7687, 8800}}},
	"[CS]":  {"000_147dd827e2059e74.txt", [][2]int{{849, 2168}}},
	"[KNS]": {"004_37dac5b11aaa2be8.txt", [][2]int{{1, 508}}},
	"[TT]":  {"001_bc7b9abbccd1690b.txt", [][2]int{{1, 520}}},
	"[TCT]": {"003_75bd50fe3814daa3.txt", [][2]int{{1, 371}}},
}

var (
	topologyRE = regexp.MustCompile(`^((twin|torus|mesh):[0-9]+(x[0-9]+)*(@[0-9]+)?(/([A-J]|cbest))?|ktree:[0-9]+,[0-9]+(/cswitch(:[0-9]+)?)?|kns:[0-9]+,[0-9]+,[0-9]+(,(fattree|ruft))?|flatfly:[0-9]+,[0-9]+(@[0-9]+)?|twisted:(rt|rtt|pt|ptt|pdtt):[0-9]+|tct:[0-9]+,[0-9]+|tofu:[0-9]+)$`)
	configRE   = regexp.MustCompile(`^(([A-J]|cbest)( ([A-J]|cbest))*)?$`)
)

func TestFieldRules(t *testing.T) {
	for _, r := range allRefs(t) {
		src, ok := sourceLines[r.Source]
		if !ok {
			t.Errorf("%s: source %q", r.ID, r.Source)
			continue
		}
		if r.File != src.file {
			t.Errorf("%s: %s text is in %s, not %s", r.ID, r.Source, src.file, r.File)
		}
		if !slices.ContainsFunc(src.ranges, func(rg [2]int) bool { return rg[0] <= r.Line && r.Line <= rg[1] }) {
			t.Errorf("%s: line %d is outside %s (%v)", r.ID, r.Line, r.Source, src.ranges)
		}
		for field, v := range map[string]string{"where": r.Where, "quantity": r.Quantity, "quote": r.Quote} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: empty %s", r.ID, field)
			}
		}
		if r.Topology != "" && !topologyRE.MatchString(r.Topology) {
			t.Errorf("%s: topology %q", r.ID, r.Topology)
		}
		if !configRE.MatchString(r.Configuration) {
			t.Errorf("%s: configuration %q", r.ID, r.Configuration)
		}
		if _, cfg, ok := strings.Cut(r.Topology, "/"); ok && strings.HasPrefix(r.Topology, "twin:") && !r.HasConfiguration(cfg) {
			t.Errorf("%s: topology %q but configuration %q", r.ID, r.Topology, r.Configuration)
		}
		if math.IsNaN(r.Low) != math.IsNaN(r.High) {
			t.Errorf("%s: low %v and high %v: give both or neither", r.ID, r.Low, r.High)
		}
		if r.HasRange() && (r.Low > r.High || r.HasValue()) {
			t.Errorf("%s: range %v..%v with value %v", r.ID, r.Low, r.High, r.Value)
		}
		if r.Kind != KindClaim && !r.HasValue() && !r.HasRange() {
			t.Errorf("%s: kind %s without a value", r.ID, r.Kind)
		}
		if (r.HasValue() || r.HasRange()) && r.Unit == "" && r.Kind != KindExact {
			t.Errorf("%s: value without a unit", r.ID)
		}
	}
}

// seeds reads the papers' text, skipping the test when it is absent.
func seeds(t *testing.T) func(file string) []string {
	t.Helper()
	if _, err := os.Stat(seedsDir); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("papers' text not found at %s (plain-text copies of the papers, kept beside the checkout, not in it); quotes not checked", seedsDir)
	}
	cache := map[string][]string{}
	return func(file string) []string {
		if ls, ok := cache[file]; ok {
			return ls
		}
		b, err := os.ReadFile(filepath.Join(seedsDir, file))
		if err != nil {
			t.Fatal(err)
		}
		cache[file] = strings.Split(string(b), "\n")
		return cache[file]
	}
}

func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// window joins lines line-2..line+2 (1-based), whitespace-normalised: the
// PDF extraction wraps sentences.
func window(lines []string, line int) string {
	lo, hi := max(line-3, 0), min(line+2, len(lines))
	if lo >= hi {
		return ""
	}
	return normalize(strings.Join(lines[lo:hi], " "))
}

func TestQuotesAreInTheSeeds(t *testing.T) {
	read := seeds(t)
	for _, r := range allRefs(t) {
		lines := read(r.File)
		q := normalize(r.Quote)
		if strings.Contains(window(lines, r.Line), q) {
			continue
		}
		var near []int
		for i := range lines {
			if strings.Contains(window(lines, i+1), q) {
				near = append(near, i+1)
			}
		}
		t.Errorf("%s: quote %q not within 2 lines of %s:%d (found near lines %v)", r.ID, r.Quote, r.File, r.Line, near)
	}
}

// numberWords are the values the papers write in words.
var numberWords = map[float64]string{1: "one", 2: "two|twice|doubles", 3: "three", 4: "four", 8: "eight", 50: "half"}

// inQuote reports whether v is written in quote: as a number (thousands
// commas ignored, trailing decimal zeros allowed) or in words.
func inQuote(quote string, v float64) bool {
	quote = regexp.MustCompile(`(\d),(\d)`).ReplaceAllString(quote, "$1$2")
	plain := regexp.QuoteMeta(strconv.FormatFloat(v, 'f', -1, 64))
	tail := `0*`
	if v == math.Trunc(v) {
		tail = `(\.0*)?`
	}
	re := `(^|[^0-9.])` + plain + tail + `($|[^0-9])`
	if w, ok := numberWords[v]; ok {
		re += `|\b(` + w + `)\b`
	}
	return regexp.MustCompile(re).MatchString(quote)
}

// TestValuesInQuotes: the quote of every row that is not a formula carries
// its value (or both ends of its range).
func TestValuesInQuotes(t *testing.T) {
	for _, c := range []struct {
		quote string
		v     float64
		want  bool
	}{
		{"38.500", 38.5, true}, {"\\approx 0.830", 0.83, true}, {"23,9526", 239526, true}, {"3,056.633", 3056.633, true},
		{"reaches practically twice", 2, true}, {"14.275", 14.276, false}, {"the 20 configurations", 2, false},
		{"1.5", 15, false}, {"115%", 15, false}, {"15%", 15, true}, {"15.0", 15, true},
	} {
		if got := inQuote(c.quote, c.v); got != c.want {
			t.Errorf("inQuote(%q, %v) = %v", c.quote, c.v, got)
		}
	}
	for _, r := range allRefs(t) {
		if r.Kind == KindFormula {
			continue
		}
		if r.Kind == KindTable { // cells run together: the digits are in the row
			digits := strings.ReplaceAll(strconv.FormatFloat(r.Value, 'f', -1, 64), ".", "")
			if !strings.Contains(strings.ReplaceAll(r.Quote, ",", ""), digits) {
				t.Errorf("%s: the digits of %v are not in the row %q", r.ID, r.Value, r.Quote)
			}
			continue
		}
		for _, v := range []float64{r.Value, r.Low, r.High} {
			if !math.IsNaN(v) && !inQuote(r.Quote, v) {
				t.Errorf("%s: %v is not in the quote %q", r.ID, v, r.Quote)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	head := strings.Join(header, ",") + "\n"
	good := "x,[TR],§1,002_f32b538ef0624f9d.txt,3,q,,,,1,,,paths,exact,a b\n"
	if refs, err := parse(strings.NewReader(head + good)); err != nil || len(refs) != 1 || !math.IsNaN(refs[0].Low) {
		t.Fatalf("good row: %v, %+v", err, refs)
	}
	for name, text := range map[string]string{
		"header":  strings.Replace(head, "quote", "quotes", 1) + good,
		"fields":  head + "x,[TR],§1\n",
		"source":  head + strings.Replace(good, "[TR]", "[XX]", 1),
		"kind":    head + strings.Replace(good, "exact", "guess", 1),
		"scheme":  head + strings.Replace(good, ",,,,1", ",,,bubbles,1", 1),
		"line":    head + strings.Replace(good, ",3,", ",0,", 1),
		"value":   head + strings.Replace(good, ",1,", ",1.2.3,", 1),
		"nan":     head + strings.Replace(good, ",1,", ",NaN,", 1),
		"emptyID": head + strings.Replace(good, "x,", ",", 1),
	} {
		if _, err := parse(strings.NewReader(text)); err == nil {
			t.Errorf("%s: bad CSV parsed without error", name)
		}
	}
}
