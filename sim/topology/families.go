package topology

import (
	"fmt"
	"strings"
)

// FamilyDef is one family of networks: how its spec strings read and print, how its
// networks are built, and what the rest of twintorus offers for it. Families() is the
// table of them; the spec parser, the grammar help, `twintorus analyze` and `configs`
// and docs/families.md all read it, so a new family is one file that returns its
// FamilyDef and one line in Families().
type FamilyDef struct {
	Name    Family
	Summary string // one line: what the family is
	// Syntax is the spec grammar, e.g. "torus:K0xK1x...[@C]"; Help the lines that
	// explain it (each its own line, no indentation).
	Syntax string
	Help   []string
	// Examples are canonical spec strings; tests parse, print and build every one.
	// Families that read a file give none.
	Examples []string
	// Parse reads the text after "NAME:" and returns the spec in canonical form; errors
	// say what is wrong and what is accepted, in one line.
	Parse func(body string) (Spec, error)
	// Format prints the text after "NAME:" of a canonical spec.
	Format func(Spec) string
	// Build makes the network of a spec that Parse returned.
	Build func(Spec) (*Network, error)
	// Routing is the routing the family's papers use (a routing.Routings name), or ""
	// when routing.Default should pick one that fits the network.
	Routing string
	// LoadRouting is the deterministic routing (a routing.Routings name whose routing
	// lists a route's hops) whose channel loads `twintorus analyze` reports, when the
	// family has its own; "" leaves the choice to analyze (DOR or DORT where they fit,
	// else minimal routing).
	LoadRouting string
	// Size counts the network of a spec that Parse returned without building it, so
	// that a run too big for the machine is refused before anything is allocated; nil
	// when the size is known only once the network is built (files).
	Size func(Spec) Size
	// Bisection is the closed form of the family's papers for the links between two
	// halves of the switches (a trunk of K links counting K), with where it comes from,
	// or ok false where the spec has none; nil when the family states none.
	Bisection func(Spec) (links int64, source string, ok bool)
	// Variants lists the configurations of a spec's shape that `twintorus configs`
	// ranks, in canonical order, or is nil when the family has none.
	Variants func(Spec) ([]Spec, error)
}

// Families is the table of network families, in the order help texts list them.
func Families() []FamilyDef {
	return []FamilyDef{torusFamily(), meshFamily(), twinFamily(), twistedFamily(), tctFamily(), toroidFamily(),
		tccFamily(), tofuFamily(), ktreeFamily(), fattreeFamily(), knsFamily(), flatflyFamily(), hyperxFamily(), slimflyFamily(), fileFamily(), anynetFamily()}
}

// LookupFamily finds a family by name (case-insensitive).
func LookupFamily(name string) (FamilyDef, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, f := range Families() {
		if string(f.Name) == name {
			return f, true
		}
	}
	return FamilyDef{}, false
}

// FamilyNames lists the families' names, e.g. "torus, mesh, twin, file and anynet".
func FamilyNames() string {
	fs := Families()
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = string(f.Name)
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Grammar is the topology spec grammar from the family table, for help texts.
func Grammar() string {
	var b strings.Builder
	fs := Families()
	width := 0
	for _, f := range fs {
		width = max(width, len(f.Syntax))
	}
	for _, f := range fs {
		lines := append([]string{f.Summary}, f.Help...)
		if ex := strings.Join(f.Examples, ", "); ex != "" {
			if last := &lines[len(lines)-1]; len(*last)+len(ex) < 72 {
				*last += ", e.g. " + ex
			} else {
				lines = append(lines, "e.g. "+ex)
			}
		}
		for i, l := range lines {
			head := ""
			if i == 0 {
				head = f.Syntax
			}
			fmt.Fprintf(&b, "%-*s  %s\n", width, head, l)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// accepted lists a few valid specs for error messages.
func accepted() string {
	var ex []string
	for _, f := range Families() {
		if len(f.Examples) > 0 {
			ex = append(ex, f.Examples[0])
		} else {
			ex = append(ex, f.Syntax)
		}
	}
	return "accepted: " + strings.Join(ex, ", ")
}
