package topology

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// FamilyAnynet names a network in BookSim2's anynet file format.
const FamilyAnynet Family = "anynet"

// anynetFamily imports a BookSim2 anynet file (routers, nodes, links with latencies).
func anynetFamily() FamilyDef {
	return FamilyDef{
		Name:    FamilyAnynet,
		Summary: "a network in BookSim2's anynet format (router/node lines, link latencies)",
		Syntax:  "anynet:PATH",
		Parse:   func(body string) (Spec, error) { return parsePath(FamilyAnynet, body) },
		Format:  func(s Spec) string { return s.Path },
		Build:   func(s Spec) (*Network, error) { return ReadAnynetFile(s.Path) },
	}
}

// ReadAnynetFile imports a network in BookSim2's anynet format (see ReadAnynet). The
// network's String is anynet:PATH.
func ReadAnynetFile(path string) (*Network, error) { return readPath(path, FamilyAnynet, readAnynet) }

// ReadAnynet imports a network in BookSim2's anynet format; name is used in errors and
// as the network's String. The format, as BookSim2's anynet.cpp reads it:
//
//	router 0 node 0 node 1 router 1 15 router 2
//	router 1 node 2 router 2 4
//
// Each line starts with a router (or a node) and lists what it connects to: routers
// and nodes, each optionally followed by a latency in cycles. A router-to-router
// mention makes a link both ways; its latency is that of the direction written
// (router 0 -> router 1 takes 15 cycles above), and the other direction keeps its own
// latency if another line gives one. A node's latency is its injection and ejection
// latency. A node hangs on one router; routers and nodes are numbered from 0 without
// gaps. Where the file gives no latency the engine's link latency applies (1 cycle by
// default, as in BookSim2). Lines starting with # or // are comments (an extension).
//
// Router ids become switch ids and node ids PE ids. A router's ports are numbered in
// the order of its own lines' items, then the links and nodes only other lines
// mention, in file order: so minimal routing's lowest-port tie rule follows the order
// a researcher writes.
func ReadAnynet(r io.Reader, name string) (*Network, error) { return readNamed(r, name, readAnynet) }

// anyItem is a router or a node on a line.
type anyItem struct {
	router bool
	id     int
}

func (it anyItem) String() string {
	if it.router {
		return "router " + strconv.Itoa(it.id)
	}
	return "node " + strconv.Itoa(it.id)
}

type anynet struct {
	name    string
	own     map[int]map[anyItem]bool
	others  map[int][]anyItem
	lat     map[[2]int]int    // (router, router) -> latency of that direction, when given
	nodeLat map[int]int       // node -> latency, when given
	nodeAt  map[int]int       // node -> router
	first   map[anyItem]int   // first line mentioning each router and node
	linkAt  map[[2]int]int    // (lower, higher router) -> line of the first mention
	items   map[int][]anyItem // router -> own-line items in order
}

func (a *anynet) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", a.name, line, fmt.Sprintf(format, args...))
}

func readAnynet(data []byte, name string) (*Network, error) {
	a := &anynet{name: name, own: map[int]map[anyItem]bool{}, others: map[int][]anyItem{}, lat: map[[2]int]int{},
		nodeLat: map[int]int{}, nodeAt: map[int]int{}, first: map[anyItem]int{}, linkAt: map[[2]int]int{}, items: map[int][]anyItem{}}
	for i, raw := range bytes.Split(data, []byte("\n")) {
		if err := a.line(strings.TrimSpace(string(raw)), i+1); err != nil {
			return nil, err
		}
	}
	return a.build()
}

// line reads one line: HEAD ID (TYPE ID [LATENCY])*.
func (a *anynet) line(text string, line int) error {
	if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "//") {
		return nil
	}
	words := strings.Fields(text)
	var head anyItem
	var last *anyItem // the item a latency would belong to
	for i := 0; i < len(words); {
		w := strings.ToLower(words[i])
		if w != "router" && w != "node" {
			if last == nil || i == 0 {
				return a.errorf(line, "%q where router or node belongs; a line is router ID (or node ID) followed by router ID or node ID items, each with an optional latency", words[i])
			}
			if err := a.latency(head, *last, words[i], line); err != nil {
				return err
			}
			last = nil
			i++
			continue
		}
		if i+1 >= len(words) {
			return a.errorf(line, "dangling link: %q with no id at the end of the line", words[i])
		}
		id, err := strconv.Atoi(words[i+1])
		if err != nil || id < 0 {
			return a.errorf(line, "%s id %q: ids are whole numbers from 0", w, words[i+1])
		}
		limit := MaxSwitches
		if w == "node" {
			limit = MaxSwitches * MaxPEsPerSwitch
		}
		if id >= limit {
			return a.errorf(line, "%s id %d: accepted networks have fewer than %d", w, id, limit)
		}
		it := anyItem{router: w == "router", id: id}
		if _, ok := a.first[it]; !ok {
			a.first[it] = line
		}
		if i == 0 {
			head = it
		} else if err := a.connect(head, it, line); err != nil {
			return err
		}
		last = &it
		if i == 0 {
			last = nil
		}
		i += 2
	}
	return nil
}

// connect records that head's line lists it.
func (a *anynet) connect(head, it anyItem, line int) error {
	switch {
	case !head.router && !it.router:
		return a.errorf(line, "%s is connected to %s; nodes connect to routers only", head, it)
	case head == it:
		return a.errorf(line, "%s is linked to itself", head)
	case !head.router || !it.router:
		node, router := head.id, it.id
		if head.router {
			node, router = it.id, head.id
		}
		if r, ok := a.nodeAt[node]; ok && r != router {
			return a.errorf(line, "node %d hangs on router %d and router %d; a node hangs on one router", node, r, router)
		}
		a.nodeAt[node] = router
		a.mention(router, anyItem{id: node}, head.router)
		return nil
	}
	key := [2]int{min(head.id, it.id), max(head.id, it.id)}
	if _, ok := a.linkAt[key]; !ok {
		a.linkAt[key] = line
	}
	a.mention(head.id, it, true)
	a.mention(it.id, head, false)
	return nil
}

// mention adds item to router r's port order: its own lines' items first.
func (a *anynet) mention(r int, it anyItem, own bool) {
	if own {
		if a.own[r] == nil {
			a.own[r] = map[anyItem]bool{}
		}
		if !a.own[r][it] {
			a.own[r][it] = true
			a.items[r] = append(a.items[r], it)
		}
		return
	}
	a.others[r] = append(a.others[r], it)
}

func (a *anynet) latency(head, it anyItem, word string, line int) error {
	v, err := strconv.Atoi(word)
	switch {
	case err != nil:
		return a.errorf(line, "latency %q after %s: a latency is a whole number of cycles", word, it)
	case v < 0:
		return a.errorf(line, "negative latency %d after %s; accepted are 1 to %d cycles", v, it, MaxLatency)
	case v < 1 || v > MaxLatency:
		return a.errorf(line, "latency %d after %s; accepted are 1 to %d cycles", v, it, MaxLatency)
	}
	switch {
	case head.router && it.router:
		a.lat[[2]int{head.id, it.id}] = v
	case head.router:
		a.nodeLat[it.id] = v
	default:
		a.nodeLat[head.id] = v
	}
	return nil
}

// dense checks that ids run from 0 without gaps.
func (a *anynet) dense(router bool) (int, error) {
	var ids []int
	for it := range a.first {
		if it.router == router {
			ids = append(ids, it.id)
		}
	}
	sort.Ints(ids)
	for i, id := range ids {
		if id != i {
			it := anyItem{router: router, id: id}
			kind := "node"
			if router {
				kind = "router"
			}
			return 0, a.errorf(a.first[it], "unknown %s %d: %ss are numbered from 0 without gaps, and %s %d is never mentioned", kind, id, kind, kind, i)
		}
	}
	return len(ids), nil
}

func (a *anynet) build() (*Network, error) {
	routers, err := a.dense(true)
	if err != nil {
		return nil, err
	}
	if routers == 0 {
		return nil, a.errorf(1, "no routers; an anynet file has lines such as: router 0 node 0 router 1")
	}
	nodes, err := a.dense(false)
	if err != nil {
		return nil, err
	}
	for n := 0; n < nodes; n++ {
		if _, ok := a.nodeAt[n]; !ok {
			return nil, a.errorf(a.first[anyItem{id: n}], "node %d is on no router", n)
		}
	}
	b := NewBuilder(a.name)
	port := make([]map[anyItem]int, routers) // router -> item -> port
	for r := 0; r < routers; r++ {
		b.AddSwitch("")
		port[r] = map[anyItem]int{}
	}
	for r := 0; r < routers; r++ {
		for _, it := range slices.Concat(a.items[r], a.others[r]) {
			if _, ok := port[r][it]; ok {
				continue
			}
			var ref PortRef
			if it.router {
				ref = b.AddPort(r, Role{})
				if v, ok := a.lat[[2]int{r, it.id}]; ok {
					b.SetLatency(ref, v)
				}
			} else {
				ref = b.attach(r, it.id)
				if v, ok := a.nodeLat[it.id]; ok {
					b.SetLatency(ref, v)
				}
			}
			port[r][it] = ref.Port
		}
	}
	var links [][2]int // the router pairs of the links, in the order they are made
	made := map[[2]int]bool{}
	for r := 0; r < routers; r++ {
		for _, it := range slices.Concat(a.items[r], a.others[r]) {
			if !it.router || it.id <= r || made[[2]int{r, it.id}] {
				continue
			}
			made[[2]int{r, it.id}] = true
			b.Connect(PortRef{r, port[r][it]}, PortRef{it.id, port[it.id][anyItem{router: true, id: r}]})
			links = append(links, [2]int{r, it.id})
		}
	}
	net, err := b.build()
	if err != nil {
		var be *BuildError
		line := 1
		if errors.As(err, &be) {
			switch {
			case be.Link >= 0 && be.Link < len(links):
				line = a.linkAt[links[be.Link]]
			case be.Switch >= 0:
				line = a.first[anyItem{router: true, id: be.Switch}]
			case be.Port.Switch >= 0:
				line = a.first[anyItem{router: true, id: be.Port.Switch}]
			}
			err = be
		}
		return nil, a.errorf(line, "%s", err)
	}
	return net, nil
}
