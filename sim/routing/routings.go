package routing

import (
	"fmt"
	"strings"

	"github.com/twintorus/twintorus/sim/topology"
)

// RoutingDef is one routing by name: what it is, which networks it fits and how it is
// made. Routings() is the table of them; New, Default, the command line's help and
// docs/families.md read it, so a new routing is one file that returns its RoutingDef
// and one line in Routings().
type RoutingDef struct {
	Name    string // as a Point, the command line and a YAML spec spell it
	Summary string // one line, for help texts
	// Fits returns nil when the routing can route the network, else why not (one line
	// that says what to use instead).
	Fits func(net *topology.Network) error
	// New makes the routing for a network it fits.
	New func(net *topology.Network, o Options) (Func, error)
	// Auto: Default may pick this routing for a network whose family names none.
	Auto bool
	// Scheme is the deadlock scheme a run uses when none is named: bubble for DOR and
	// DORT (the 3DT papers'; docs/model.md), escape for the table-based routings, none
	// for up*/down*.
	Scheme Scheme
	// SchemeFor, when set, chooses the default scheme per network instead (adaptive:
	// vc where DOR/DORT can escape, escape elsewhere); SchemeDoc says so in help texts.
	SchemeFor func(net *topology.Network) Scheme
	SchemeDoc string
	// Checked: without a deadlock scheme the routing is not deadlock-free by
	// construction, so runs check its channel dependencies first and refuse a cycle.
	Checked bool
	// Tie is the tie rule the routing applies when none is named (TieDefault): mirror
	// for tsdor, plus (the zero value reads as plus) for the others (docs/model.md).
	Tie Tie
}

// Options are the settings a routing is made with.
type Options struct {
	Scheme Scheme // deadlock avoidance
	Tie    Tie    // the tie rule at distance k/2 (TieDefault: the routing's own, RoutingDef.Tie)
	// Arg is the text after "NAME:" in a routing name such as table:PATH.
	Arg string
}

// Routings is the table of routings, in the order help texts list them.
func Routings() []RoutingDef {
	return []RoutingDef{dorRouting(), dortRouting(), tsdorRouting(), destroRouting(), ncaRouting(), hybridRouting(), flatDORRouting(), hyperxDORRouting(), dalRouting(), slimflyRouting(SFMin), slimflyRouting(SFVal), slimflyRouting(SFUGAL), minRouting(), adaptiveRouting(), upDownRouting(), tableRouting(),
		twistedDORRouting(), twistedAdaptiveRouting(), tctRouting(),
		dfMinRouting(), dfValRouting(), dfUGALLRouting(), dfUGALGRouting(), dfPARRouting()}
}

// DefaultScheme is the deadlock scheme a run of this routing on net uses when none is
// named.
func (r RoutingDef) DefaultScheme(net *topology.Network) Scheme {
	if r.SchemeFor != nil && net != nil {
		return r.SchemeFor(net)
	}
	return r.Scheme
}

// SchemeText is the default scheme as help texts print it.
func (r RoutingDef) SchemeText() string {
	if r.SchemeDoc != "" {
		return r.SchemeDoc
	}
	return r.Scheme.String()
}

// Canonical is a routing name with its base in lower case: "DORT" is "dort",
// "Table:My.txt" is "table:My.txt" (the argument keeps its case).
func Canonical(name string) string {
	base, arg, has := strings.Cut(strings.TrimSpace(name), ":")
	base = strings.ToLower(strings.TrimSpace(base))
	if has {
		return base + ":" + arg
	}
	return base
}

// LookupRouting finds a routing by name; a name such as "table:PATH" finds "table".
func LookupRouting(name string) (RoutingDef, string, bool) {
	base, arg, _ := strings.Cut(strings.TrimSpace(name), ":")
	base = strings.ToLower(strings.TrimSpace(base))
	for _, r := range Routings() {
		if r.Name == base {
			return r, arg, true
		}
	}
	return RoutingDef{}, "", false
}

// Accepted lists the routings' names with what they are for, for error messages.
func Accepted() string {
	var parts []string
	for _, r := range Routings() {
		parts = append(parts, r.Name+" ("+r.Summary+")")
	}
	return strings.Join(parts, ", ")
}

// ResolveTie is the tie rule the named routing applies on net when asked for tie: its
// own (RoutingDef.Tie) for TieDefault, plus for mirror on a network without twin
// cards. Points whose rules resolve alike run the same routes.
func ResolveTie(name string, net *topology.Network, tie Tie) Tie {
	def, _, _ := LookupRouting(name)
	return tie.Resolve(def.Tie, net)
}

// New makes the named routing for a network, with a tie rule (TieDefault: the
// routing's own).
func New(name string, net *topology.Network, scheme Scheme, tie Tie) (Func, error) {
	def, arg, ok := LookupRouting(name)
	if !ok {
		return nil, fmt.Errorf("unknown routing %q: accepted are %s", name, Accepted())
	}
	if !tie.Valid() {
		return nil, fmt.Errorf("tie rule %d: accepted are %s", tie, TieNames())
	}
	if err := def.Fits(net); err != nil {
		return nil, fmt.Errorf("routing %s does not fit %s: %w", def.Name, net, err)
	}
	return def.New(net, Options{Scheme: scheme, Tie: tie, Arg: arg})
}

// Default is the routing a network is simulated with when none is named: its family's
// (DORT on twin tori, DOR on tori and meshes), else the first automatic routing in
// Routings() that fits it.
func Default(net *topology.Network) string {
	if r := net.DefaultRouting(); r != "" {
		return r
	}
	for _, r := range Routings() {
		if r.Auto && r.Fits(net) == nil {
			return r.Name
		}
	}
	return ""
}
