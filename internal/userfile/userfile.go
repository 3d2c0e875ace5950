package userfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Open opens path for reading if it is a regular file. It opens without blocking, so
// that a named pipe (whose open would wait for a writer) or a device is refused at
// once, with a *NotRegularError that says what it is.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	return f, nil
}

// ReadFile reads a regular file of at most limit bytes whole. A larger file is
// refused before it is read, with a *TooLargeError that names the limit; a file that
// grows while it is read past the limit is refused too.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() > limit {
		return nil, &TooLargeError{Path: path, Size: info.Size(), Limit: limit}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Size: int64(len(data)), Limit: limit}
	}
	return data, nil
}

// NotRegularError is a path that holds something other than a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	what := "not a regular file"
	switch t := e.Mode.Type(); {
	case t&fs.ModeDir != 0:
		what = "a directory, not a regular file"
	case t&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO), not a regular file"
	case t&fs.ModeSocket != 0:
		what = "a socket, not a regular file"
	case t&fs.ModeDevice != 0:
		what = "a device, not a regular file"
	}
	return e.Path + ": " + what
}

// TooLargeError is a file larger than a whole-file read accepts.
type TooLargeError struct {
	Path        string
	Size, Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: %d bytes or more; accepted are files of at most %d bytes", e.Path, e.Size, e.Limit)
}
