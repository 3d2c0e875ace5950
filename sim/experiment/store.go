package experiment

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"time"

	"gopkg.in/yaml.v3"
)

// Store is a results store: a directory with one file per record,
//
//	DIR/records/ab/abcdef….json   the record with key abcdef… (see Record.Marshal)
//	DIR/specs/HASH.yaml           every spec swept into it (Spec.Hash, first 16 digits),
//	                              which its records name by hash
//	DIR/slurm/                    Slurm batch scripts and task logs
//
// Records are written to a temporary file in the same directory, synced and renamed
// into place, so that a reader (or a crash at any moment) sees a whole record or none.
// Several processes may share a store, as Slurm array tasks do; two that write the
// same record write the same result. A store that already holds everything asked of
// it is only read: a complete sweep runs on a read-only file system.
type Store struct {
	Dir string

	mu    sync.Mutex
	specs map[string]specEntry // by Spec.Hash: specs read from or saved into DIR/specs
}

// specEntry is a spec of the store as known to this process: read, saved or failed.
type specEntry struct {
	spec  Spec
	err   error
	saved bool // the file is known to hold this spec
}

// tempPrefix starts the names of records being written; readers skip them.
const tempPrefix = ".tmp-"

// OpenStore opens or creates a results store.
func OpenStore(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("results store: no directory given")
	}
	if err := os.MkdirAll(filepath.Join(dir, "records"), 0o755); err != nil {
		return nil, fmt.Errorf("results store: %w", err)
	}
	return &Store{Dir: dir}, nil
}

// Path is the file of the record with the given key (64 hex digits): records fan out
// into 256 directories by their first two digits.
func (s *Store) Path(key string) string {
	if len(key) < 2 {
		return filepath.Join(s.Dir, "records", key+".json")
	}
	return filepath.Join(s.Dir, "records", key[:2], key+".json")
}

// Get reads the record with the given key. It returns (nil, nil) when there is none,
// and an error naming the file when the file is unreadable, corrupt, stale or not a
// regular file (a named pipe there is never opened for reading, so it cannot hang).
// The record's Spec is filled from the store's spec files; it stays zero if the
// store has lost the record's spec.
func (s *Store) Get(key string) (*Record, error) {
	if len(key) != 64 {
		return nil, fmt.Errorf("record key %q: want 64 hex digits", key)
	}
	path := s.Path(key)
	data, err := readRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	r, err := UnmarshalRecord(data)
	if err == nil && r.Key != key {
		err = fmt.Errorf("key mismatch: the file is named %.12s…, its record is %.12s…", key, r.Key)
	}
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	s.fillSpec(r)
	return r, nil
}

// fillSpec sets the spec of a record that names it by hash, when the store has it,
// and returns the error of a spec the store has lost or cannot read.
func (s *Store) fillSpec(r *Record) error {
	if !isZeroSpec(r.Spec) {
		return nil // a RecordFormatV1 record carries its own
	}
	spec, err := s.Spec(r.SpecHash)
	if err == nil {
		r.Spec = spec
	}
	return err
}

func isZeroSpec(s Spec) bool { return reflect.ValueOf(s).IsZero() }

// Put writes a record atomically: temporary file, fsync, rename, fsync of the
// directory. The record's spec goes to DIR/specs first, unless the store has it.
func (s *Store) Put(r *Record) error { return s.put(r, nil) }

// put is Put, calling placed (if not nil) the moment the record is in place, before
// the directory is synced: a process killed after the rename keeps the record.
func (s *Store) put(r *Record, placed func()) error {
	if len(r.Key) != 64 {
		return fmt.Errorf("record key %q: want 64 hex digits", r.Key)
	}
	data, err := r.Marshal()
	if err != nil {
		return err
	}
	if err := s.saveSpecOf(r); err != nil {
		return err
	}
	return writeAtomic(s.Path(r.Key), data, placed)
}

// saveSpecOf makes sure the store holds the spec a record names.
func (s *Store) saveSpecOf(r *Record) error {
	if isZeroSpec(r.Spec) {
		return nil // a record whose spec is lost stays so
	}
	s.mu.Lock()
	e, ok := s.specs[r.SpecHash]
	s.mu.Unlock()
	if ok && e.saved {
		return nil
	}
	if h := r.Spec.Hash(); h != r.SpecHash {
		return fmt.Errorf("record %.12s…: its spec hashes to %.12s…, the record says %.12s…", r.Key, h, r.SpecHash)
	}
	_, err := s.SaveSpec(r.Spec)
	return err
}

// readRegular reads a file that must be a regular file. It opens without blocking, so
// that a named pipe (which would block until a writer came) or a device is refused
// at once, with an error that says what it is.
func readRegular(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &notRegularError{info.Mode()}
	}
	return io.ReadAll(f)
}

// notRegularError is a record or spec path that holds something other than a file.
type notRegularError struct{ mode fs.FileMode }

func (e *notRegularError) Error() string {
	what := "not a regular file"
	switch t := e.mode.Type(); {
	case t&fs.ModeDir != 0:
		what = "a directory, not a file"
	case t&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO), not a regular file"
	case t&fs.ModeSocket != 0:
		what = "a socket, not a regular file"
	case t&fs.ModeDevice != 0:
		what = "a device, not a regular file"
	}
	return what
}

// writeAtomic puts data at path so that path holds either its old content or all of
// data, whatever happens, and calls placed (if not nil) once it does.
//
// The temporary file is locked from its creation to its rename (lockTemp), so that a
// sweep that resumes can remove the temporary files of killed processes at once
// (removeStaleTemps) without touching those of live ones. A cleaner may remove a
// new file in the moment before its writer locks it: the writer then finds its
// path gone or locked by the cleaner, and starts another.
func writeAtomic(path string, data []byte, placed func()) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	var f *os.File
	for attempt := 0; ; attempt++ {
		var err error
		if f, err = os.CreateTemp(dir, tempPrefix+filepath.Base(path)+"-*"); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		locked, err := lockTemp(f)
		if err == nil && (!locked || sameFile(f, f.Name())) {
			break
		}
		f.Close()
		if attempt == 3 {
			return fmt.Errorf("write %s: its temporary files were removed as it made them, %d times", path, attempt+1)
		}
	}
	tmp := f.Name()
	// CreateTemp makes the file private; results are for the group that shares the
	// store (Slurm tasks, colleagues), as a file made by os.Create would be.
	err := f.Chmod(0o644)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = os.Rename(tmp, path) // before Close: the lock holds until the file has its name
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if placed != nil {
		placed()
	}
	// The rename survives a power cut once the directory is synced.
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// SaveSpec writes the spec, defaults filled in, to DIR/specs/HASH.yaml and returns
// the file's path. The file is what Slurm tasks read, and the spec of every record
// that names it by hash. A file that already holds the spec is left alone, so a store
// that has everything is only read.
func (s *Store) SaveSpec(spec Spec) (string, error) {
	spec = spec.withDefaults()
	spec.src = nil
	hash := spec.Hash()
	path := s.specPath(hash)
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.specs[hash]; ok && e.saved {
		return path, nil
	}
	data, err := yaml.Marshal(spec)
	if err != nil {
		return "", fmt.Errorf("encode spec: %w", err)
	}
	// The file is the only copy of the spec its records have: it must read back as
	// this very spec.
	if back, err := decodeSpec(path, data); err != nil || back.Hash() != hash {
		return "", fmt.Errorf("spec %.16s… does not read back from its YAML (%v): this is a bug, please report it with the spec", hash, err)
	}
	data = append([]byte(specHeader(hash)), data...)
	if old, err := readRegular(path); err != nil || !bytes.Equal(old, data) {
		if err := writeAtomic(path, data, nil); err != nil {
			return "", err
		}
	}
	s.remember(hash, specEntry{spec: spec, saved: true})
	return path, nil
}

func specHeader(hash string) string {
	return "# Spec " + hash + ", as swept into this results store.\n"
}

func (s *Store) specPath(hash string) string {
	return filepath.Join(s.Dir, "specs", hash[:min(16, len(hash))]+".yaml")
}

// remember caches a spec; the caller holds s.mu.
func (s *Store) remember(hash string, e specEntry) {
	if s.specs == nil {
		s.specs = map[string]specEntry{}
	}
	s.specs[hash] = e
}

// Spec reads the spec with the given hash (Spec.Hash) from DIR/specs, where Run and
// Put keep the spec of every record. The error names the file when it is missing,
// unreadable or holds another spec.
func (s *Store) Spec(hash string) (Spec, error) {
	if !specHashForm.MatchString(hash) {
		return Spec{}, fmt.Errorf("spec hash %q: want 64 hex digits", hash)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.specs[hash]; ok {
		return e.spec, e.err
	}
	path := s.specPath(hash)
	spec, err := readSpecFile(path, hash)
	if err != nil {
		err = fmt.Errorf("spec %.16s…: %w", hash, err)
	}
	s.remember(hash, specEntry{spec: spec, err: err})
	return spec, err
}

// readSpecFile reads a spec file of the store and checks it is the spec named hash.
func readSpecFile(path, hash string) (Spec, error) {
	data, err := readRegular(path)
	if err != nil {
		return Spec{}, err
	}
	if !bytes.HasPrefix(data, []byte(specHeader(hash))) {
		return Spec{}, fmt.Errorf("%s does not start with the header of spec %.16s…", path, hash)
	}
	spec, err := decodeSpec(path, data)
	if err != nil {
		return Spec{}, err
	}
	spec = spec.withDefaults()
	spec.src = nil
	if got := spec.Hash(); got != hash {
		return Spec{}, fmt.Errorf("%s holds spec %.16s…", path, got)
	}
	return spec, nil
}

// removeStaleTemps deletes the temporary record and spec files of processes killed
// while writing them: those whose lock no process holds (writeAtomic), or, where the
// file system has no locks, those older than an hour (younger ones may belong to a
// live process).
func (s *Store) removeStaleTemps() {
	for _, sub := range []string{"records", "specs"} {
		_ = filepath.WalkDir(filepath.Join(s.Dir, sub), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), tempPrefix) {
				return nil
			}
			if removeAbandoned(path) {
				return nil
			}
			if info, err := d.Info(); err == nil && info.Mode().IsRegular() && time.Since(info.ModTime()) > time.Hour {
				_ = os.Remove(path)
			}
			return nil
		})
	}
}

// Corrupt is a record file that could not be used.
type Corrupt struct {
	Path string
	Err  error
}

// Collection is what a results store holds.
type Collection struct {
	Records []Record  // valid records of this ModelVersion, sorted (SortRecords)
	Corrupt []Corrupt // files that are truncated, altered or misnamed, and directories where records should be
	Stale   int       // valid records of another ModelVersion, left out
	// Skipped are entries that are not regular files (named pipes, sockets,
	// devices): never opened for reading, left out with a warning.
	Skipped []Corrupt
	// SpecErrors are spec files that records name by hash but that are missing or
	// unreadable: the records are kept, with a zero Spec.
	SpecErrors []Corrupt
}

// Load reads every record of a results store; see LoadContext.
func Load(dir string) (*Collection, error) { return LoadContext(context.Background(), dir) }

// LoadContext reads every record of a results store. Corrupt files are listed, not
// merged: a sweep of the spec that made them recomputes them. Named pipes and other
// files that are not regular are skipped, never read. The error is for a store that
// cannot be read at all, or ctx's when it is cancelled.
func LoadContext(ctx context.Context, dir string) (*Collection, error) {
	root := filepath.Join(dir, "records")
	if _, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("results store %s: %w (is it a sweep's --out directory?)", dir, err)
	}
	c := &Collection{}
	store := &Store{Dir: dir}
	specErr := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			if path == root || filepath.Dir(path) == root && isFanout(d.Name()) {
				return nil
			}
			c.Corrupt = append(c.Corrupt, Corrupt{path, errors.New("a directory where record files should be: remove it (a sweep then recomputes what it hides)")})
			return fs.SkipDir
		}
		if strings.HasPrefix(d.Name(), tempPrefix) {
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".json") {
			c.Corrupt = append(c.Corrupt, Corrupt{path, errors.New("not a record file")})
			return nil
		}
		data, err := readRegular(path)
		var odd *notRegularError
		if errors.As(err, &odd) {
			c.Skipped = append(c.Skipped, Corrupt{path, err})
			return nil
		}
		if err != nil {
			return err
		}
		r, err := UnmarshalRecord(data)
		switch {
		case errors.Is(err, ErrStale):
			c.Stale++
			return nil
		case err == nil && filepath.Base(path) != r.Key+".json":
			err = fmt.Errorf("key mismatch: the file is named %s, its record is %s", filepath.Base(path), r.Key)
		case err == nil && filepath.Base(filepath.Dir(path)) != r.Key[:2]:
			err = fmt.Errorf("in directory %s, want %s", filepath.Base(filepath.Dir(path)), r.Key[:2])
		}
		if err != nil {
			c.Corrupt = append(c.Corrupt, Corrupt{path, err})
			return nil
		}
		if err := store.fillSpec(r); err != nil && !specErr[r.SpecHash] {
			specErr[r.SpecHash] = true
			c.SpecErrors = append(c.SpecErrors, Corrupt{store.specPath(r.SpecHash), err})
		}
		c.Records = append(c.Records, *r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("results store %s: %w", dir, err)
	}
	SortRecords(c.Records)
	return c, nil
}

// isFanout tells whether name is one of the 256 directories records fan out into.
func isFanout(name string) bool {
	return len(name) == 2 && strings.Trim(name, "0123456789abcdef") == ""
}

// Err is nil when every record file was valid, else an error naming the corrupt ones.
func (c *Collection) Err() error {
	if len(c.Corrupt) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d corrupt record file(s), left out: re-run the sweep that made them (it recomputes them) or delete them", len(c.Corrupt))
	for i, k := range c.Corrupt {
		if i == 10 {
			fmt.Fprintf(&b, "\n  ... and %d more", len(c.Corrupt)-10)
			break
		}
		fmt.Fprintf(&b, "\n  %s: %v", k.Path, k.Err)
	}
	return errors.New(b.String())
}
