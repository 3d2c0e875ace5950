package experiment

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// SpecStatus is how much of one spec swept into a results store the store holds.
type SpecStatus struct {
	Path string // the spec's file, DIR/specs/HASH.yaml
	Name string // the spec's name, or its file's base name
	// Total is the number of simulations of the spec; -1 under a load search,
	// past_saturation or a precision target, whose loads or replications depend on
	// the results.
	Total  int
	Stored int // of those, valid records in the collection
	// Missing describes the first few simulations without a valid record, in the
	// spec's order: key, curve, load and seed.
	Missing []string
}

// maxMissingListed bounds SpecStatus.Missing.
const maxMissingListed = 5

// Status reports, for every spec file in the store dir from which c was loaded, how
// many of its simulations c holds: what a failed or unfinished sweep left out. Spec
// files that are unreadable, or that do not read back as the spec their header
// names (some written before past_saturation was saved), are passed over: their
// simulations cannot be known.
func (c *Collection) Status(ctx context.Context, dir string) ([]SpecStatus, error) {
	files, err := filepath.Glob(filepath.Join(dir, "specs", "*.yaml"))
	if err != nil {
		return nil, err
	}
	have := make(map[string]bool, len(c.Records))
	for i := range c.Records {
		have[c.Records[i].Key] = true
	}
	var out []SpecStatus
	for _, path := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		spec, ok := specOfFile(path)
		if !ok {
			continue
		}
		st := SpecStatus{Path: path, Name: spec.Name, Total: -1}
		if st.Name == "" {
			st.Name = filepath.Base(path)
		}
		if !spec.planned() {
			out = append(out, st)
			continue
		}
		curves, err := spec.Curves()
		if err != nil {
			continue // a spec of another version of the program
		}
		jobs := spec.jobs(curves)
		st.Total = len(jobs)
		for _, j := range jobs {
			if have[j.key] {
				st.Stored++
			} else if len(st.Missing) < maxMissingListed {
				st.Missing = append(st.Missing, fmt.Sprintf("%.12s… (%s at load %g, seed %d)", j.key, curves[j.curve].Name, j.point.Load, j.point.Seed))
			}
		}
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b SpecStatus) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// specOfFile reads a spec file of a store and checks it against the hash in its
// header.
func specOfFile(path string) (Spec, bool) {
	data, err := readRegular(path)
	if err != nil {
		return Spec{}, false
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	hash, ok := strings.CutPrefix(string(first), "# Spec ")
	if !ok {
		return Spec{}, false
	}
	hash, _, _ = strings.Cut(hash, ",")
	spec, err := readSpecFile(path, hash)
	return spec, err == nil
}
