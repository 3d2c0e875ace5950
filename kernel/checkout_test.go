package kernel

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeCheckout makes a directory with this module's go.mod and, when setUp, the
// bin/ tools scripts/setup.sh builds (stand-ins), and returns it.
func fakeCheckout(t *testing.T, setUp bool) string {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module "+ModulePath+"\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.sum"), []byte("sum of "+root+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if setUp {
		bin := filepath.Join(root, "bin")
		if err := os.Mkdir(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"gonb", "goimports", "gopls", "twintorus"} {
			if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

func mkdir(t *testing.T, parts ...string) string {
	t.Helper()
	d := filepath.Join(parts...)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestFindRoot: the checkout is found from any directory inside it, through a
// nested module of another path; nothing is found outside a checkout or above
// another module alone.
func TestFindRoot(t *testing.T) {
	root := fakeCheckout(t, false)
	deep := mkdir(t, root, "notebooks", "drafts", "2026")
	other := mkdir(t, root, "notebooks", "mine")
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{root, deep, other, mkdir(t, other, "sub")} {
		if got, err := FindRoot(dir); err != nil || got != root {
			t.Errorf("FindRoot(%s) = %q, %v; want %s", dir, got, err, root)
		}
	}

	alone := t.TempDir()
	if err := os.WriteFile(filepath.Join(alone, "go.mod"), []byte("module example.com/alone\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := t.TempDir()
	if err := os.WriteFile(filepath.Join(broken, "go.mod"), []byte("this is not a go.mod\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{t.TempDir(), alone, mkdir(t, alone, "x"), broken} {
		if got, err := FindRoot(dir); err == nil || !strings.Contains(err.Error(), "no checkout of "+ModulePath) {
			t.Errorf("FindRoot(%s) = %q, %v; want no checkout", dir, got, err)
		}
	}
}

// TestServedFor: a notebook runs the checkout it is in, with that checkout's tools
// once set up; a notebook outside every checkout runs the kernelspec's, and says so.
func TestServedFor(t *testing.T) {
	a, b, bare := fakeCheckout(t, true), fakeCheckout(t, true), fakeCheckout(t, false)
	elsewhere := t.TempDir() // the kernelspec's tools may sit outside the checkout (jupytertest)
	installed := Served{Root: a, Relay: filepath.Join(elsewhere, "twintorus"), Gonb: filepath.Join(elsewhere, "gonb")}

	for _, c := range []struct {
		name, dir            string
		root, relay, gonb    string
		fallback             bool
		how                  string
		noInstalledRootError bool
	}{
		{"inside the installing checkout", mkdir(t, a, "notebooks"), a, installed.Relay, installed.Gonb, false, "inside it", false},
		{"inside another checkout", mkdir(t, b, "notebooks", "deep"), b, filepath.Join(b, "bin", "twintorus"), filepath.Join(b, "bin", "gonb"), false, "inside it", false},
		{"inside a checkout not set up", mkdir(t, bare, "notebooks"), bare, installed.Relay, installed.Gonb, false, "no bin/twintorus, bin/gonb, bin/goimports, bin/gopls (run scripts/setup.sh there)", false},
		{"outside any checkout", t.TempDir(), a, installed.Relay, installed.Gonb, true, "not inside a checkout of " + ModulePath + ": using the one that installed the kernelspec", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := ServedFor(c.dir, installed)
			if err != nil {
				t.Fatal(err)
			}
			if s.Root != c.root || s.Relay != c.relay || s.Gonb != c.gonb || s.Fallback != c.fallback || !strings.Contains(s.How, c.how) {
				t.Errorf("ServedFor = %+v\nwant root %s, relay %s, gonb %s, fallback %v, how ~ %q", s, c.root, c.relay, c.gonb, c.fallback, c.how)
			}
			if line := s.String(); !strings.HasPrefix(line, "checkout "+c.root+" at ") || !strings.Contains(line, c.how) {
				t.Errorf("log line %q", line)
			}
			// A relay started by another relay knows no installing checkout.
			_, err = ServedFor(c.dir, Served{Relay: installed.Relay, Gonb: installed.Gonb})
			if c.noInstalledRootError != (err != nil) {
				t.Errorf("without the kernelspec's root: err = %v", err)
			}
		})
	}
	// The kernelspec's checkout was deleted or moved.
	if _, err := ServedFor(t.TempDir(), Served{Root: filepath.Join(elsewhere, "gone"), Relay: installed.Relay, Gonb: installed.Gonb}); err == nil ||
		!strings.Contains(err.Error(), "the kernelspec's checkout is gone") {
		t.Errorf("kernelspec's checkout gone: err = %v", err)
	}
	// A checkout not set up, seen by a relay that has no tools of its own to lend.
	if _, err := ServedFor(mkdir(t, bare, "notebooks"), Served{}); err == nil || !strings.Contains(err.Error(), "run scripts/setup.sh there") {
		t.Errorf("bare checkout, no tools: err = %v", err)
	}
}

func TestEnviron(t *testing.T) {
	s := Served{Root: "/src/b", Gonb: "/src/b/bin/gonb"}
	got := Environ([]string{"HOME=/h", "TWINTORUS_ROOT=/src/a", "PATH=/spec/bin:/src/a/bin:/usr/bin"}, s)
	want := []string{"HOME=/h", "PATH=/src/b/bin:/spec/bin:/src/a/bin:/usr/bin", "TWINTORUS_ROOT=/src/b"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Environ = %q, want %q", got, want)
	}
	if got := Environ(nil, s); strings.Join(got, " ") != "PATH=/src/b/bin TWINTORUS_ROOT=/src/b" {
		t.Errorf("Environ(nil) = %q", got)
	}
}

func TestInstalledIn(t *testing.T) {
	s, err := InstalledIn(NewKernelspec("/a/bin/twintorus", "/a/bin/gonb", "/spec/bin", "/a/bin", "/a"))
	if err != nil || s.Root != "/a" || s.Relay != "/a/bin/twintorus" || s.Gonb != "/a/bin/gonb" {
		t.Errorf("InstalledIn(NewKernelspec) = %+v, %v", s, err)
	}
	old := Kernelspec{Argv: []string{"/a/bin/twintorus", "kernel", "relay", "--gonb", "/a/bin/gonb", "{connection_file}"},
		Env: map[string]string{"TWINTORUS_ROOT": "/old"}}
	if s, err := InstalledIn(old); err != nil || s.Root != "/old" {
		t.Errorf("InstalledIn(a kernelspec from before --root) = %+v, %v", s, err)
	}
	for _, argv := range [][]string{nil, {"/usr/bin/gonb", "--kernel", "{connection_file}"}, {"/a/twintorus", "kernel", "relay", "{connection_file}"}} {
		if _, err := InstalledIn(Kernelspec{Argv: argv}); err == nil || !strings.Contains(err.Error(), "reinstall") {
			t.Errorf("InstalledIn(%q): err = %v", argv, err)
		}
	}
}

// TestTwoInstallsDoNotClobber is issue 37's case: checkout A is set up, then checkout
// B, into the same Jupyter data directory. The kernelspec is B's now, yet a notebook
// in A still runs A's tools and compiles against A's module, and one in B runs B's.
func TestTwoInstallsDoNotClobber(t *testing.T) {
	a, b := fakeCheckout(t, true), fakeCheckout(t, true)
	data := t.TempDir()
	var dir string
	for _, root := range []string{a, b} {
		var err error
		if dir, err = Install(InstallOptions{Root: root, DataDir: data}); err != nil {
			t.Fatal(err)
		}
	}
	spec, err := ReadKernelspec(dir)
	if err != nil {
		t.Fatal(err)
	}
	installed, err := InstalledIn(spec)
	if err != nil || installed.Root != b {
		t.Fatalf("the kernelspec after installing from B names %+v, %v", installed, err)
	}
	wrapper := filepath.Join(dir, "bin", "go")
	for _, root := range []string{a, b} {
		s, err := ServedFor(mkdir(t, root, "notebooks"), installed)
		if err != nil {
			t.Fatal(err)
		}
		if s.Root != root || s.Relay != filepath.Join(root, "bin", "twintorus") || s.Gonb != filepath.Join(root, "bin", "gonb") {
			t.Errorf("a notebook in %s is served %+v", root, s)
		}
		// gonb's `go mod init` through the wrapper, in the kernel's environment.
		work := t.TempDir()
		cmd := exec.Command(wrapper, "mod", "init", "gonb_0e196e1e")
		cmd.Dir, cmd.Env = work, Environ(os.Environ(), s)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("wrapper mod init: %v\n%s", err, out)
		}
		gomod, err := os.ReadFile(filepath.Join(work, "go.mod"))
		if err != nil || !strings.Contains(string(gomod), "replace "+ModulePath+" => "+root+"\n") {
			t.Errorf("a notebook in %s builds against:\n%s (%v)", root, gomod, err)
		}
		if sum, err := os.ReadFile(filepath.Join(work, "go.sum")); err != nil || string(sum) != "sum of "+root+"\n" {
			t.Errorf("a notebook in %s has go.sum %q (%v)", root, sum, err)
		}
	}
}
