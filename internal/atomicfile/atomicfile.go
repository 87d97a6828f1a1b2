// Package atomicfile writes output files so that a run that fails leaves the old files
// as they were: each file is written to a temporary file beside it and renamed over it
// only once every file of the batch has been written whole.
//
// An existing file keeps what makes it that file: a symbolic link is written through to
// its target (the link stays a link), and the target keeps its mode and owner. A file
// the rename would change otherwise — one with several hard links, or whose owner the
// writer cannot give the new file — is rewritten in place instead, after its new size
// has been reserved (fallocate, where there is one), so that a full disk fails before
// any byte changes; such a write is not atomic against a crash.
//
// Errors name the file the caller gave, never the temporary file.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces path's contents with data (a new file gets perm, less the umask).
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	var b Batch
	b.Add(path, data, perm)
	return b.Commit()
}

// A Batch writes several files all or nothing: Add stages each (a complete temporary
// file, or, for a file rewritten in place, a check that it can be), Commit renames them
// into place. The first error stops the batch; Commit then removes every temporary file
// and changes nothing.
type Batch struct {
	files []*staged
	err   error
}

type staged struct {
	path   string // as the caller named it, for messages
	target string // path with symbolic links resolved: the file written
	tmp    string // the temporary file beside target ("" when written in place)
	data   []byte
	perm   fs.FileMode
}

// Add stages path. It does nothing once the batch has failed.
func (b *Batch) Add(path string, data []byte, perm fs.FileMode) {
	if b.err != nil {
		return
	}
	s, err := stage(path, data, perm)
	if err != nil {
		b.err = err
		return
	}
	b.files = append(b.files, s)
}

// Err is the first error of the batch so far.
func (b *Batch) Err() error { return b.err }

// Commit puts every staged file in place, or, when staging failed, removes the
// temporary files and returns the error.
func (b *Batch) Commit() error {
	if b.err != nil {
		b.Abort()
		return b.err
	}
	for i, s := range b.files {
		var err error
		if s.tmp != "" {
			err = os.Rename(s.tmp, s.target)
		} else {
			err = writeInPlace(s.target, s.data)
		}
		if err != nil {
			b.files = b.files[i:]
			b.Abort()
			return fail(s.path, err)
		}
	}
	b.files = nil
	return nil
}

// Abort removes the temporary files of a batch that is not committed.
func (b *Batch) Abort() {
	for _, s := range b.files {
		if s.tmp != "" {
			os.Remove(s.tmp)
		}
	}
	b.files = nil
}

func stage(path string, data []byte, perm fs.FileMode) (*staged, error) {
	target, err := resolve(path)
	if err != nil {
		return nil, fail(path, err)
	}
	s := &staged{path: path, target: target, data: data, perm: perm}
	fi, err := os.Stat(target)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fail(path, err)
	case exists && !fi.Mode().IsRegular():
		return nil, fail(path, errors.New("not a regular file"))
	case exists && links(fi) > 1:
		return s, checkWritable(target) // several names for one file: keep them one
	}
	f, tmp, err := createTemp(target, perm)
	if err != nil {
		return nil, fail(path, err)
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil && exists {
		werr = os.Chmod(tmp, fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
	}
	if werr == nil && exists && !sameOwner(tmp, fi) {
		if chownLike(tmp, fi) != nil { // the new file cannot have the old one's owner
			os.Remove(tmp)
			return s, checkWritable(target)
		}
	}
	if werr != nil {
		os.Remove(tmp)
		return nil, fail(path, werr)
	}
	s.tmp = tmp
	return s, nil
}

// resolve follows symbolic links from path to the file they name (which need not
// exist yet: a dangling link's target is created).
func resolve(path string) (string, error) {
	p := path
	for range 40 {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(p), dest)
		}
		p = dest
	}
	return "", errors.New("too many levels of symbolic links")
}

// createTemp makes a new file beside target, with perm (the kernel applies the umask).
func createTemp(target string, perm fs.FileMode) (*os.File, string, error) {
	dir, base := filepath.Split(target)
	for range 100 {
		var r [6]byte
		rand.Read(r[:])
		name := filepath.Join(dir, "."+base+".tmp"+hex.EncodeToString(r[:]))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", errors.New("cannot make a temporary file")
}

func checkWritable(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fail(path, err)
	}
	return f.Close()
}

// writeInPlace rewrites an existing file: its new size is reserved first, so that a
// full disk fails before the file changes.
func writeInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	err = reserve(f, int64(len(data)))
	if err == nil {
		_, err = f.WriteAt(data, 0)
	}
	if err == nil {
		err = f.Truncate(int64(len(data)))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Error is a file that could not be written, named as the caller named it; callers
// tell an I/O error from others by its type (exit status 2).
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("%s: cannot write: %v", e.Path, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// fail is the error of a file: "PATH: cannot write: REASON".
func fail(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return &Error{Path: path, Err: err}
}
