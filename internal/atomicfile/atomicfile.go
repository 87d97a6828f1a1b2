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
// A batch of a command's own outputs (Batch.Outputs: the files of gen --out, report
// --out, --keep-c ...) follows no symbolic link: one found at an output path is replaced
// by the new file, never written through (a link planted in an output directory would
// otherwise have the command overwrite any file it can write).
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
	"strings"
	"time"
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
	// Outputs: the files are the command's own outputs in an output directory; a
	// symbolic link at their path is replaced, not followed, and temporary files that
	// an earlier, killed run left for these paths are removed.
	Outputs bool
	files   []*staged
	err     error
}

// WriteOutput is WriteFile for a command's own output file (Batch.Outputs).
func WriteOutput(path string, data []byte, perm fs.FileMode) error {
	b := Batch{Outputs: true}
	b.Add(path, data, perm)
	return b.Commit()
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
	s, err := stage(path, data, perm, b.Outputs)
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
//
// Every file's space is taken before the first changes: the files rewritten in place
// have their new sizes reserved first (a full disk fails there, with nothing changed),
// then they are written, then the temporary files are renamed. Writing a hard-linked
// report.html in place after report.md's rename left a new report.md beside the old
// report.html on a full disk.
func (b *Batch) Commit() error {
	if b.err != nil {
		b.Abort()
		return b.err
	}
	inPlace, err := b.reserveInPlace()
	if err != nil {
		b.Abort()
		return err
	}
	for _, w := range inPlace {
		if err := w.write(); err != nil {
			b.Abort()
			return fail(w.s.path, err)
		}
	}
	for i, s := range b.files {
		if s.tmp == "" {
			continue
		}
		if err := os.Rename(s.tmp, s.target); err != nil {
			b.files = b.files[i:]
			b.Abort()
			return fail(s.path, err)
		}
	}
	b.files = nil
	return nil
}

// reserveInPlace opens the files rewritten in place and reserves their new sizes.
func (b *Batch) reserveInPlace() ([]*inPlaceWrite, error) {
	var ws []*inPlaceWrite
	for _, s := range b.files {
		if s.tmp != "" {
			continue
		}
		f, err := os.OpenFile(s.target, os.O_WRONLY, 0)
		if err == nil {
			err = reserve(f, int64(len(s.data)))
			if err != nil {
				f.Close()
			}
		}
		if err != nil {
			for _, w := range ws {
				w.f.Close()
			}
			return nil, fail(s.path, err)
		}
		ws = append(ws, &inPlaceWrite{s: s, f: f})
	}
	return ws, nil
}

// inPlaceWrite is an open file whose new size is reserved.
type inPlaceWrite struct {
	s *staged
	f *os.File
}

func (w *inPlaceWrite) write() error {
	_, err := w.f.WriteAt(w.s.data, 0)
	if err == nil {
		err = w.f.Truncate(int64(len(w.s.data)))
	}
	if err == nil {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return err
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

func stage(path string, data []byte, perm fs.FileMode, output bool) (*staged, error) {
	if output {
		return stageOutput(path, data, perm)
	}
	target, err := resolve(path)
	if err != nil {
		return nil, fail(path, err)
	}
	removeDeadWritersTemps(filepath.Dir(target))
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
	return s, writeTemp(s, fi, exists)
}

// stageOutput stages a command's own output at path itself: a symbolic link there is
// replaced by the new file, not followed; a regular file keeps its mode, and its other
// hard links (rewritten in place); anything else is an error.
func stageOutput(path string, data []byte, perm fs.FileMode) (*staged, error) {
	removeStaleTemps(path)
	s := &staged{path: path, target: path, data: data, perm: perm}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Mode()&fs.ModeSymlink != 0):
		return s, writeTemp(s, nil, false)
	case err != nil:
		return nil, fail(path, err)
	case !fi.Mode().IsRegular():
		return nil, fail(path, errors.New("not a regular file"))
	case links(fi) > 1:
		return s, checkWritable(path)
	}
	return s, writeTemp(s, fi, true)
}

// staleAge is how old a temporary file of an unknown writer must be before a later
// run removes it: a run writing its batch right now is not disturbed.
const staleAge = 10 * time.Minute

// removeStaleTemps removes the temporary files that a run killed before its Commit or
// Abort left beside path (SIGKILL leaves them; 348 were found after a killed gen
// --out): those of a writer that is no longer running (.NAME.tmpPID-XXXXXXXX,
// deadWriter), and those of the older naming (.NAME.tmpXXXXXXXXXXXX) once staleAge old.
func removeStaleTemps(path string) {
	dir, base := filepath.Split(path)
	matches, _ := filepath.Glob(filepath.Join(dir, "."+base+".tmp"+strings.Repeat("[0-9a-f]", 12)))
	for _, m := range matches {
		if fi, err := os.Lstat(m); err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > staleAge {
			os.Remove(m)
		}
	}
	removeDeadWritersTemps(dir)
}

// writeTemp writes s's data to a new temporary file beside s.target, with the mode and
// owner of the existing file fi when there is one; a file whose owner cannot be kept is
// left to be rewritten in place.
func writeTemp(s *staged, fi fs.FileInfo, exists bool) error {
	path, target, data, perm := s.path, s.target, s.data, s.perm
	f, tmp, err := createTemp(target, perm)
	if err != nil {
		return fail(path, err)
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
			return checkWritable(target)
		}
	}
	if werr != nil {
		os.Remove(tmp)
		return fail(path, werr)
	}
	s.tmp = tmp
	return nil
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
		var r [4]byte
		rand.Read(r[:])
		name := filepath.Join(dir, tempName(base, os.Getpid(), hex.EncodeToString(r[:])))
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
