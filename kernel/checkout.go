package kernel

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Served is the checkout a kernel serves and the binaries that run it.
type Served struct {
	// Root is the checkout whose packages cells import; the kernel sets
	// TWINTORUS_ROOT to it and the go wrapper replaces ModulePath with it.
	Root string
	// Relay is the twintorus binary whose `kernel relay` runs gonb.
	Relay string
	// Gonb is the gonb binary; goimports and gopls sit beside it.
	Gonb string
	// How says why this checkout, for the kernel's log and `twintorus kernel which`.
	How string
	// Fallback is true when the notebook's directory is not inside any checkout and
	// the kernelspec's own checkout is used.
	Fallback bool
}

// Tools is the directory with gonb, goimports and gopls, which goes first on gonb's PATH.
func (s Served) Tools() string { return filepath.Dir(s.Gonb) }

// String is one line for a log: the checkout, its revision and how it was chosen.
func (s Served) String() string {
	return fmt.Sprintf("checkout %s at %s (%s)", s.Root, Revision(s.Root), s.How)
}

// ServedFor chooses what a kernel started in dir serves. Jupyter starts a kernel in
// its notebook's directory, so a notebook inside a checkout runs that checkout: its
// module, and its bin/ tools once scripts/setup.sh has built them there. That keeps
// two checkouts that were set up one after the other each running their own code,
// though they share the one "twintorus" kernelspec the notebooks name.
//
// installed is what the kernelspec names: the checkout that ran `twintorus kernel
// install` and its binaries. It serves notebooks outside any checkout (the tests'
// copies in temporary directories), and a notebook inside the installing checkout
// keeps the kernelspec's binaries, which may live elsewhere (--gonb). Its Root may be
// empty (a relay started by another relay); then dir must be inside a checkout.
func ServedFor(dir string, installed Served) (Served, error) {
	root, err := FindRoot(dir)
	if err != nil {
		if installed.Root == "" {
			return Served{}, fmt.Errorf("kernel: %s is not inside a checkout of %s and the kernelspec names none (reinstall it with twintorus kernel install): %w", dir, ModulePath, err)
		}
		if _, err := checkRoot(installed.Root); err != nil {
			return Served{}, fmt.Errorf("kernel: %s is not inside a checkout of %s, and the kernelspec's checkout is gone (run scripts/setup.sh in a checkout): %w", dir, ModulePath, err)
		}
		installed.How = fmt.Sprintf("the notebook's directory %s is not inside a checkout of %s: using the one that installed the kernelspec", dir, ModulePath)
		installed.Fallback = true
		return installed, nil
	}
	if sameDir(root, installed.Root) {
		installed.Root = root
		installed.How = "the notebook's directory is inside it"
		return installed, nil
	}
	bin := filepath.Join(root, "bin")
	var missing []string
	// What scripts/setup.sh builds into a checkout's bin/.
	for _, name := range []string{"twintorus", "gonb", "goimports", "gopls"} {
		if checkExecutable(filepath.Join(bin, name)) != nil {
			missing = append(missing, "bin/"+name)
		}
	}
	if len(missing) == 0 {
		return Served{
			Root:  root,
			Relay: filepath.Join(bin, "twintorus"),
			Gonb:  filepath.Join(bin, "gonb"),
			How:   "the notebook's directory is inside it",
		}, nil
	}
	if installed.Relay == "" || installed.Gonb == "" {
		return Served{}, fmt.Errorf("kernel: checkout %s has no %s: run scripts/setup.sh there", root, strings.Join(missing, ", "))
	}
	// The module is still this checkout's: a notebook shows the code beside it. Only
	// the tools, which do not change what a cell computes, come from elsewhere.
	return Served{
		Root:  root,
		Relay: installed.Relay,
		Gonb:  installed.Gonb,
		How: fmt.Sprintf("the notebook's directory is inside it; it has no %s (run scripts/setup.sh there), so the tools are the kernelspec's, %s",
			strings.Join(missing, ", "), filepath.Dir(installed.Gonb)),
	}, nil
}

// Environ is env with what gonb and the cells need to serve s: TWINTORUS_ROOT (read
// by the go wrapper and by notebooks for the checkout's files) and s's tools first
// on PATH (gonb finds goimports and gopls there).
func Environ(env []string, s Served) []string {
	out := make([]string, 0, len(env)+2)
	path := ""
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, "TWINTORUS_ROOT="):
		case strings.HasPrefix(kv, "PATH="):
			path = strings.TrimPrefix(kv, "PATH=")
		default:
			out = append(out, kv)
		}
	}
	if path == "" {
		path = s.Tools()
	} else {
		path = s.Tools() + string(os.PathListSeparator) + path
	}
	return append(out, "PATH="+path, "TWINTORUS_ROOT="+s.Root)
}

// InstalledIn reads what a kernelspec written by Install names: its checkout (the
// --root of its argv, or the TWINTORUS_ROOT of kernelspecs written before --root
// existed), relay and gonb.
func InstalledIn(spec Kernelspec) (Served, error) {
	a := spec.Argv
	if len(a) < 4 || a[1] != "kernel" || a[2] != "relay" {
		return Served{}, fmt.Errorf("kernel: the kernelspec runs %q, not twintorus kernel relay: reinstall it with twintorus kernel install", strings.Join(a, " "))
	}
	s := Served{Relay: a[0]}
	for i := 3; i+1 < len(a); i++ {
		switch a[i] {
		case "--gonb":
			s.Gonb = a[i+1]
		case "--root":
			s.Root = a[i+1]
		}
	}
	if s.Gonb == "" {
		return Served{}, errors.New("kernel: the kernelspec names no --gonb: reinstall it with twintorus kernel install")
	}
	if s.Root == "" {
		s.Root = spec.Env["TWINTORUS_ROOT"]
	}
	return s, nil
}

// Revision is the checkout's git revision, with "-dirty" when it has uncommitted
// changes, or a note saying why there is none.
func Revision(root string) string {
	out, err := exec.Command("git", "-C", root, "describe", "--always", "--dirty", "--abbrev=12").Output()
	if err != nil {
		return "an unknown revision (not a git checkout, or git failed)"
	}
	return "git " + strings.TrimSpace(string(out))
}

// sameDir reports whether a and b name the same existing directory.
func sameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
