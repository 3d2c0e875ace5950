package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Store is a results store: a directory with one file per record,
//
//	DIR/records/ab/abcdef….json   the record with key abcdef… (see Record.Marshal)
//	DIR/specs/HASH.yaml           every spec swept into it (Spec.Hash, first 16 digits)
//	DIR/slurm/                    Slurm batch scripts and task logs
//
// Records are written to a temporary file in the same directory, synced and renamed
// into place, so that a reader (or a crash at any moment) sees a whole record or none.
// Several processes may share a store, as Slurm array tasks do; two that write the
// same record write the same result.
type Store struct {
	Dir string
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
// and an error naming the file when the file is unreadable, corrupt or stale.
func (s *Store) Get(key string) (*Record, error) {
	if len(key) != 64 {
		return nil, fmt.Errorf("record key %q: want 64 hex digits", key)
	}
	path := s.Path(key)
	data, err := os.ReadFile(path)
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
	return r, nil
}

// Put writes a record atomically: temporary file, fsync, rename, fsync of the directory.
func (s *Store) Put(r *Record) error { return s.put(r, nil) }

// put is Put, calling placed (if not nil) the moment the record is in place, before
// the directory is synced: a process killed after the rename keeps the record.
func (s *Store) put(r *Record, placed func()) error {
	data, err := r.Marshal()
	if err != nil {
		return err
	}
	if len(r.Key) != 64 {
		return fmt.Errorf("record key %q: want 64 hex digits", r.Key)
	}
	return writeAtomic(s.Path(r.Key), data, placed)
}

// writeAtomic puts data at path so that path holds either its old content or all of
// data, whatever happens, and calls placed (if not nil) once it does.
func writeAtomic(path string, data []byte, placed func()) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, tempPrefix+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
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
// the file's path. The file is what Slurm tasks read, and provenance for the store.
func (s *Store) SaveSpec(spec Spec) (string, error) {
	data, err := yaml.Marshal(spec)
	if err != nil {
		return "", fmt.Errorf("encode spec: %w", err)
	}
	path := filepath.Join(s.Dir, "specs", spec.Hash()[:16]+".yaml")
	header := "# Spec " + spec.Hash() + ", as swept into this results store.\n"
	if err := writeAtomic(path, append([]byte(header), data...), nil); err != nil {
		return "", err
	}
	return path, nil
}

// removeStaleTemps deletes temporary record files older than an hour: leftovers of
// processes killed while writing. Younger ones may belong to a live process.
func (s *Store) removeStaleTemps() {
	root := filepath.Join(s.Dir, "records")
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), tempPrefix) {
			return nil
		}
		if info, err := d.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
			_ = os.Remove(path)
		}
		return nil
	})
}

// Corrupt is a record file that could not be used.
type Corrupt struct {
	Path string
	Err  error
}

// Collection is what a results store holds.
type Collection struct {
	Records []Record  // valid records of this ModelVersion, sorted (SortRecords)
	Corrupt []Corrupt // files that are truncated, altered or misnamed
	Stale   int       // valid records of another ModelVersion, left out
}

// Load reads every record of a results store. Corrupt files are listed, not merged: a
// sweep of the spec that made them recomputes them. The error is for a store that
// cannot be read at all.
func Load(dir string) (*Collection, error) {
	root := filepath.Join(dir, "records")
	if _, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("results store %s: %w (is it a sweep's --out directory?)", dir, err)
	}
	c := &Collection{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasPrefix(d.Name(), tempPrefix) {
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".json") {
			c.Corrupt = append(c.Corrupt, Corrupt{path, errors.New("not a record file")})
			return nil
		}
		data, err := os.ReadFile(path)
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
		c.Records = append(c.Records, *r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("results store %s: %w", dir, err)
	}
	SortRecords(c.Records)
	return c, nil
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
