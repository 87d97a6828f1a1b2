package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rmacheck/rmacheck/litmus"
)

// collectFiles turns command-line arguments into the list of .lit files to process, in
// argument order, each once. A directory is walked (in lexical order) for *.lit files,
// skipping directories named testdata or starting with "." or "_" below it, as the go tool
// does; a symbolic link to a directory is followed when it is an argument, not below one. Any other argument is kept as it is, even when it does not exist: reading it is
// then an error for that file alone, so one bad argument never stops the others.
//
// The error, when not nil, lists the directories that could not be walked or held no
// .lit file; the files found are returned with it and should still be processed.
func collectFiles(args []string) ([]string, error) {
	var files []string
	var errs []error
	seen := map[string]bool{}
	add := func(p string) {
		key := filepath.Clean(p)
		if !seen[key] {
			seen[key] = true
			files = append(files, p)
		}
	}
	for _, arg := range args {
		fi, err := os.Stat(arg)
		if err != nil || !fi.IsDir() {
			add(arg)
			continue
		}
		// A symbolic link to a directory, given on the command line, is followed (WalkDir
		// would not enter it); the files found are named under the link.
		root := arg
		if li, err := os.Lstat(arg); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			if r, err := filepath.EvalSymlinks(arg); err == nil {
				root = r
			}
		}
		n := 0
		werr := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			top := p == root
			if root != arg {
				p = filepath.Join(arg, strings.TrimPrefix(p, root))
			}
			if err != nil {
				errs = append(errs, &litmus.Error{File: p, Msg: "cannot read: " + reason(err)})
				if d != nil && d.IsDir() && !top {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if !top && skipDir(d.Name()) {
					return fs.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(d.Name(), ".lit") {
				return nil
			}
			n++
			if why := notRegular(p, d); why != "" {
				// Opening a named pipe or a device blocks or never ends (a FIFO z.lit
				// hung check and run): skip it, and say so.
				errs = append(errs, &litmus.Error{File: p, Msg: "skipped: not a regular file (" + why + ")"})
				return nil
			}
			add(p)
			return nil
		})
		if werr != nil {
			errs = append(errs, &litmus.Error{File: arg, Msg: "cannot read: " + reason(werr)})
		} else if n == 0 {
			errs = append(errs, &litmus.Error{File: arg, Msg: "no .lit files in this directory"})
		}
	}
	return files, errors.Join(errs...)
}

// notRegular says what a directory entry is when it is not a regular file, nor a
// symbolic link to one ("" when it is).
func notRegular(path string, d fs.DirEntry) string {
	mode := d.Type()
	if mode&fs.ModeSymlink != 0 {
		fi, err := os.Stat(path)
		if err != nil {
			return "a broken symbolic link"
		}
		mode = fi.Mode().Type()
	}
	switch {
	case mode.IsRegular():
		return ""
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode.IsDir():
		return "a directory"
	}
	return "a special file"
}

func skipDir(name string) bool {
	return name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// reason is the part of a file-system error worth showing after the file name.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// readTest reads and parses one .lit file. It returns the source as read; the error, when
// not nil, is a litmus.ErrorList (an unreadable file, or one larger than --max-file-size,
// gives a one-entry list "FILE: cannot read: REASON" or "FILE: larger than ..."). The
// Test may be non-nil together with an error when the syntax parsed but the file does
// not validate.
func readTest(path string) (*litmus.Test, []byte, error) {
	src, err := litmus.ReadFile(path, maxFileSize)
	if err != nil {
		return nil, nil, err
	}
	t, err := litmus.Parse(path, src)
	return t, src, err
}

// loadTest reads, parses and validates one .lit file; see readTest. A caller that prints
// the error with printErrors gets every problem as a FILE:LINE:COL: msg line.
func loadTest(path string) (*litmus.Test, error) {
	t, _, err := readTest(path)
	if err != nil {
		return nil, err
	}
	return t, nil
}
