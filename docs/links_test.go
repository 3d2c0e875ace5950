package docs

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"
)

// The rules the documents are held to. A document is README.md, BENCHMARKS.md, a
// docs/*.md page, or a notebook (notebooks/*.ipynb); in a notebook the links and paths
// of its markdown cells are checked, and the forbidden citations in its markdown and
// code cells (not in its outputs). Fenced code blocks are not read for links and paths.
//
//  1. Links. Every markdown link or image, [text](target) or ![alt](target), whose
//     target is not a URL (no "://", not mailto:) must be relative and lead to a file
//     or directory of the repository, resolved from the document's directory and not
//     above the repository's root. A target "FILE#anchor" whose file is a markdown page
//     must name one of its headings, by GitHub's rule (lower case, punctuation dropped,
//     spaces as hyphens, "-1", "-2"… for repeated headings) or an <a id> or <a name>;
//     "#anchor" alone names a heading of the document itself (markdown documents only:
//     notebook anchors are the notebook viewer's).
//
//  2. Backquoted paths. A code span `TOKEN` names a repository file when TOKEN is one
//     word (no whitespace), contains "/", ends with one of pathExtensions, contains
//     none of the characters * ? [ ] { } < > $ % | : (globs, templates, URLs and
//     prefixed specs such as file:net.json or trace:PATH are not paths) nor a
//     placeholder word in capitals (one of placeholders, as in sim/topology/NAME.go),
//     is not absolute, and lies under one of sourceDirs: read from the repository's root,
//     or from the document's directory when TOKEN starts with "./" or "../". Such a
//     path must exist, from the root or from the document's directory. Anything else
//     (out/store, results/configs, /tmp/x.csv, fig.csv, PATH.json, paths a user's
//     command creates outside those directories) is prose, not checked.
//
//  3. Citations. No document may cite the development notes kept beside the checkout,
//     which a reader does not have: the model notes and the architecture notes (MODEL
//     and ARCHITECTURE, as .md files), a reference spec (a .md file of the spec
//     directory, or one of specNames by its file name) or the shared directory itself
//     (the parent directory's "shared"). forbidden matches them; the test spells those
//     names in pieces, so that a search for them finds no citation in this package.

// sourceDirs are the repository's top-level directories under which a backquoted
// path is taken for a file of the repository (rule 2).
var sourceDirs = []string{"cmd", "datasets", "docs", "figures", "internal", "kernel", "notebooks", "plots", "scripts", "sim"}

// placeholders are the words in capitals that make a backquoted path a template, not
// a file: datasets/workloads/NAME.yaml, specs/HASH.yaml (rule 2).
var placeholders = []string{"NAME", "PATH", "HASH", "DIR", "FILE", "ID"}

// capitals is a run of capital letters, a candidate placeholder word.
var capitals = regexp.MustCompile(`[A-Z]+`)

// pathExtensions are the endings that make a backquoted token a file name (rule 2).
var pathExtensions = []string{".md", ".ipynb", ".yaml", ".yml", ".go", ".csv", ".png", ".svg", ".pgo", ".sh", ".json", ".gz"}

// specNames are the reference specs' file names (rule 3).
var specNames = []string{"3dt", "ndt", "5dt-extoll-adaptive", "alternative-topologies", "thesis-cswitch-overview"}

// forbidden matches a citation of a file outside the repository (rule 3).
var forbidden = regexp.MustCompile(`\bMODEL\.md\b|\bARCHITECTURE\.md\b|\bspec[/][\w.-]+\.md\b|\.\./shared\b|(?:^|[^\w/.-])(?:` +
	strings.Join(specNames, "|") + `)\.md\b`)

// The names of the notes outside the repository, in pieces (rule 3).
var (
	modelNotes = "MODEL" + ".md"
	archNotes  = "ARCHITECTURE" + ".md"
	specNotes  = "spec" + "/3dt.md"
	sharedDir  = ".." + "/shared"
)

// part is a piece of a document checked on its own: a whole markdown file, or one cell
// of a notebook.
type part struct {
	where string // "" for a markdown file, "cell N" in a notebook
	text  string
	links bool // check links and paths (rules 1 and 2), not only citations (rule 3)
}

// document is a file to check, by its slash path from the repository's root.
type document struct {
	path  string
	parts []part
}

// readDocument reads a markdown file or a notebook from the repository.
func readDocument(fsys fs.FS, name string) (document, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return document{}, err
	}
	doc := document{path: name}
	if !strings.HasSuffix(name, ".ipynb") {
		doc.parts = []part{{text: string(data), links: true}}
		return doc, nil
	}
	var nb struct {
		Cells []struct {
			Type   string          `json:"cell_type"`
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return document{}, fmt.Errorf("%s: %w", name, err)
	}
	for i, c := range nb.Cells {
		var text string
		var lines []string
		if json.Unmarshal(c.Source, &lines) == nil {
			text = strings.Join(lines, "")
		} else if err := json.Unmarshal(c.Source, &text); err != nil {
			return document{}, fmt.Errorf("%s: cell %d: %w", name, i, err)
		}
		doc.parts = append(doc.parts, part{where: fmt.Sprintf("cell %d", i), text: text, links: c.Type == "markdown"})
	}
	return doc, nil
}

// check returns the problems of a document in the repository fsys, one line each.
func check(fsys fs.FS, doc document) []string {
	var problems []string
	dir := path.Dir(doc.path)
	for _, p := range doc.parts {
		at := func(offset int) string {
			line := strings.Count(p.text[:offset], "\n") + 1
			if p.where != "" {
				return fmt.Sprintf("%s: %s, line %d", doc.path, p.where, line)
			}
			return fmt.Sprintf("%s:%d", doc.path, line)
		}
		for _, m := range forbidden.FindAllStringIndex(p.text, -1) {
			name := strings.TrimLeftFunc(p.text[m[0]:m[1]], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' })
			problems = append(problems, fmt.Sprintf("%s: cites %q, which is not in the repository", at(m[1]-len(name)), name))
		}
		if !p.links {
			continue
		}
		text := blankFences(p.text)
		masked, spans := codeSpans(text)
		for _, s := range spans {
			if msg := checkPath(fsys, dir, s.text); msg != "" {
				problems = append(problems, at(s.offset)+": "+msg)
			}
		}
		for _, l := range linkTargets(masked) {
			if msg := checkLink(fsys, doc, l.text); msg != "" {
				problems = append(problems, at(l.offset)+": "+msg)
			}
		}
	}
	return problems
}

// blankFences replaces the lines of fenced code blocks (``` or ~~~) by empty lines,
// keeping the offsets of everything else.
func blankFences(text string) string {
	lines := strings.SplitAfter(text, "\n")
	fence := ""
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if fence == "" {
			if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				fence = t[:3]
				lines[i] = blank(l)
			}
			continue
		}
		if strings.HasPrefix(t, fence) {
			fence = ""
		}
		lines[i] = blank(l)
	}
	return strings.Join(lines, "")
}

// blank is s with every character but newlines replaced by spaces.
func blank(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' {
			return r
		}
		return ' '
	}, s)
}

// span is a piece of text and where it starts.
type span struct {
	offset int
	text   string
}

// codeSpans finds the code spans of markdown text: a run of n backticks, up to the next
// run of exactly n, not across a blank line. It returns them, and the text with their
// contents blanked out (the backticks kept) for finding links.
func codeSpans(text string) (string, []span) {
	b := []byte(text)
	var spans []span
	for i := 0; i < len(text); {
		if text[i] != '`' {
			i++
			continue
		}
		n := run(text, i)
		open := i + n
		end := -1
		for j := open; j < len(text); {
			if strings.HasPrefix(text[j:], "\n\n") {
				break
			}
			if text[j] == '`' {
				if m := run(text, j); m == n {
					end = j
					break
				} else {
					j += m
					continue
				}
			}
			j++
		}
		if end < 0 {
			i = open
			continue
		}
		content := text[open:end]
		spans = append(spans, span{offset: open, text: strings.TrimSpace(strings.ReplaceAll(content, "\n", " "))})
		copy(b[open:end], blank(content))
		i = end + n
	}
	return string(b), spans
}

// run is the number of backticks from text[i].
func run(text string, i int) int {
	n := 0
	for i+n < len(text) && text[i+n] == '`' {
		n++
	}
	return n
}

// linkTargets finds the targets of the markdown links and images in text (code spans
// already blanked): what follows each "](", up to whitespace or the closing ")".
func linkTargets(text string) []span {
	var out []span
	for i := 0; ; {
		k := strings.Index(text[i:], "](")
		if k < 0 {
			return out
		}
		start := i + k + 2
		rest := text[start:]
		var target string
		if strings.HasPrefix(rest, "<") {
			if e := strings.IndexByte(rest, '>'); e > 0 {
				target = rest[1:e]
			}
		} else {
			e := strings.IndexAny(rest, " \t\n)")
			if e < 0 {
				e = len(rest)
			}
			target = rest[:e]
		}
		out = append(out, span{offset: start, text: target})
		i = start
	}
}

// checkLink checks one link target of doc (rule 1); "" when it is fine.
func checkLink(fsys fs.FS, doc document, target string) string {
	switch {
	case target == "":
		return "a link with no target"
	case strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:"):
		return ""
	case strings.HasPrefix(target, "/"):
		return fmt.Sprintf("link %q is absolute: links must be relative to the document", target)
	}
	file, anchor, _ := strings.Cut(target, "#")
	name := doc.path
	if file != "" {
		name = path.Join(path.Dir(doc.path), file)
		if name == ".." || strings.HasPrefix(name, "../") {
			return fmt.Sprintf("link %q leads out of the repository", target)
		}
		if _, err := fs.Stat(fsys, name); err != nil {
			return fmt.Sprintf("link %q: %s does not exist", target, name)
		}
	}
	if anchor == "" || !strings.HasSuffix(name, ".md") {
		return ""
	}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Sprintf("link %q: %v", target, err)
	}
	if !slices.Contains(anchors(string(data)), anchor) {
		return fmt.Sprintf("link %q: %s has no heading or anchor %q", target, name, anchor)
	}
	return ""
}

var (
	heading    = regexp.MustCompile(`(?m)^ {0,3}#{1,6}[ \t]+(.*?)[ \t]*#*[ \t]*$`)
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
)

// anchors lists the anchors of a markdown page: its headings' GitHub slugs and its
// explicit <a id> and <a name> anchors.
func anchors(text string) []string {
	text = blankFences(text)
	var out []string
	seen := map[string]int{}
	for _, m := range heading.FindAllStringSubmatch(text, -1) {
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out = append(out, fmt.Sprintf("%s-%d", s, n))
		} else {
			out = append(out, s)
		}
		seen[s]++
	}
	for _, m := range htmlAnchor.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// slug is GitHub's anchor for a heading: lower case, letters, digits, "-" and "_" kept,
// spaces turned into "-", everything else dropped.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// checkPath checks one code span of a document in directory dir (rule 2); "" when it
// is fine or not a repository path.
func checkPath(fsys fs.FS, dir, token string) string {
	if token == "" || strings.ContainsAny(token, " \t\n*?[]{}<>$%|:") || strings.HasPrefix(token, "/") ||
		!strings.Contains(token, "/") || !slices.ContainsFunc(pathExtensions, func(e string) bool { return strings.HasSuffix(token, e) }) {
		return ""
	}
	for _, w := range capitals.FindAllString(token, -1) {
		if slices.Contains(placeholders, w) {
			return ""
		}
	}
	relative := strings.HasPrefix(token, "./") || strings.HasPrefix(token, "../")
	named := path.Clean(token)
	if relative {
		named = path.Join(dir, token)
	}
	top, _, _ := strings.Cut(named, "/")
	if !slices.Contains(sourceDirs, top) {
		return ""
	}
	for _, name := range []string{path.Clean(token), path.Join(dir, token)} {
		if name == ".." || strings.HasPrefix(name, "../") {
			continue
		}
		if _, err := fs.Stat(fsys, name); err == nil {
			return ""
		}
	}
	return fmt.Sprintf("`%s` is not a file of the repository", token)
}

// documents lists the documents of the repository: README.md, BENCHMARKS.md,
// docs/*.md and notebooks/*.ipynb.
func documents(fsys fs.FS) ([]string, error) {
	names := []string{"README.md", "BENCHMARKS.md"}
	for _, pattern := range []string{"docs/*.md", "notebooks/*.ipynb"} {
		m, err := fs.Glob(fsys, pattern)
		if err != nil {
			return nil, err
		}
		names = append(names, m...)
	}
	return names, nil
}

// The repository's documents stand alone: every link and every backquoted path
// resolves inside the repository, and none cites the notes outside it.
func TestDocumentsStandAlone(t *testing.T) {
	fsys := os.DirFS("..")
	for _, d := range sourceDirs {
		if st, err := fs.Stat(fsys, d); err != nil || !st.IsDir() {
			t.Errorf("sourceDirs lists %s, which is not a directory of the repository", d)
		}
	}
	names, err := documents(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 15 {
		t.Fatalf("found only %d documents: %v", len(names), names)
	}
	links := 0
	for _, name := range names {
		doc, err := readDocument(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range doc.parts {
			if p.links {
				masked, spans := codeSpans(blankFences(p.text))
				links += len(linkTargets(masked)) + len(spans)
			}
		}
		for _, problem := range check(fsys, doc) {
			t.Error(problem)
		}
	}
	if links < 200 {
		t.Errorf("read only %d links and code spans in %d documents: is the reader broken?", links, len(names))
	}
}

// The checker reports what it must, on a small repository in memory, and nothing else.
func TestCheckerReportsBrokenLinks(t *testing.T) {
	fsys := fstest.MapFS{
		"README.md": {Data: []byte("# Top\n\n" +
			"See [the model](docs/model.md), [its switch](docs/model.md#the-switch) and\n" +
			"[a missing page](docs/gone.md), [a missing heading](docs/model.md#nowhere),\n" +
			"![a figure](docs/figures/none.png), [up and out](../elsewhere.md), [web](https://example.com/x.md),\n" +
			"[self](#top), [self, wrong](#bottom), [a directory](sim/).\n\n" +
			"Paths: `docs/model.md`, `sim/engine/params.go`, `sim/engine/gone.go`, `out/store/x.csv`,\n" +
			"`/tmp/x.csv`, `fig.csv`, `file:net.json`, `datasets/experiments/{a,b}.yaml`, `datasets/x *.csv`,\n" +
			"`datasets/workloads/NAME.yaml`, `datasets/README.md`.\n\n" +
			"```\n[in a fence](nowhere.md) `sim/also-gone.go`\n```\n\n" +
			"Do not cite " + modelNotes + ", " + specNotes + " §5.4, (`ndt.md` §4) or " + sharedDir + "/seeds.\n")},
		"docs/model.md":        {Data: []byte("# The model\n\n## The switch\n\n[back](../README.md#top), `./figures/a.png`, `../sim/engine/params.go`, `figures/b.png`\n")},
		"docs/figures/a.png":   {Data: []byte("png")},
		"sim/engine/params.go": {Data: []byte("package engine\n")},
		"datasets/README.md":   {Data: []byte("# Data\n")},
		"notebooks/n.ipynb":    {Data: []byte(`{"cells": [{"cell_type": "markdown", "source": ["[ok](../docs/model.md), [bad](gone.ipynb)\n", "` + "`notebooks/m.ipynb`" + `"]}, {"cell_type": "code", "source": "// see ` + archNotes + `"}]}`)},
	}
	var got []string
	for _, name := range []string{"README.md", "docs/model.md", "notebooks/n.ipynb"} {
		doc, err := readDocument(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, check(fsys, doc)...)
	}
	want := []string{
		`README.md:16: cites "` + modelNotes + `", which is not in the repository`,
		`README.md:16: cites "` + specNotes + `", which is not in the repository`,
		`README.md:16: cites "ndt.md", which is not in the repository`,
		`README.md:16: cites "` + sharedDir + `", which is not in the repository`,
		"README.md:8: `sim/engine/gone.go` is not a file of the repository",
		`README.md:4: link "docs/gone.md": docs/gone.md does not exist`,
		`README.md:4: link "docs/model.md#nowhere": docs/model.md has no heading or anchor "nowhere"`,
		`README.md:5: link "docs/figures/none.png": docs/figures/none.png does not exist`,
		`README.md:5: link "../elsewhere.md" leads out of the repository`,
		`README.md:6: link "#bottom": README.md has no heading or anchor "bottom"`,
		"docs/model.md:5: `figures/b.png` is not a file of the repository",
		`notebooks/n.ipynb: cell 0, line 1: link "gone.ipynb": notebooks/gone.ipynb does not exist`,
		"notebooks/n.ipynb: cell 0, line 2: `notebooks/m.ipynb` is not a file of the repository",
		`notebooks/n.ipynb: cell 1, line 1: cites "` + archNotes + `", which is not in the repository`,
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("problems found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// GitHub's anchors for headings, repeated headings and explicit anchors.
func TestAnchors(t *testing.T) {
	got := anchors("# The simulation model\n## Allocators\n```\n# not a heading\n```\n## Packet lengths (`packet_lengths`)\n### Allocators\n<a id=\"x-1\"></a>\n## §5.4: DOR, DORT & TSDOR\n")
	want := []string{"the-simulation-model", "allocators", "packet-lengths-packet_lengths", "allocators-1", "54-dor-dort--tsdor", "x-1"}
	if !slices.Equal(got, want) {
		t.Errorf("anchors %q, want %q", got, want)
	}
}
