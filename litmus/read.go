package litmus

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxFileSize is the default bound on an input file (16 MiB). A litmus test is a few
// hundred bytes; anything near the bound is a mistake (a device, a log, a core file)
// that would otherwise be read whole, or forever (/dev/zero).
const MaxFileSize = 16 << 20

// ReadFile reads a file of at most limit bytes (MaxFileSize when limit <= 0). An
// unreadable or larger file is a one-entry ErrorList: "FILE: cannot read: REASON" or
// "FILE: larger than LIMIT ...".
func ReadFile(path string, limit int64) ([]byte, error) {
	if src, ok := readRegular(path, limitOrDefault(limit)); ok {
		return src, nil // the common case, in fewer system calls (read_unix.go)
	}
	return readFile(path, limit)
}

// readFile is ReadFile through package os: every kind of file, and every error.
func readFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, ErrorList{{File: path, Msg: "cannot read: " + reason(err)}}
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limitOrDefault(limit) {
		return nil, tooLarge(path, limit)
	}
	return ReadAll(path, f, limit)
}

// ReadAll reads r, named name in messages, as ReadFile reads a file: at most limit
// bytes are read, and a longer input is refused.
func ReadAll(name string, r io.Reader, limit int64) ([]byte, error) {
	limit = limitOrDefault(limit)
	src, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, ErrorList{{File: name, Msg: "cannot read: " + reason(err)}}
	}
	if int64(len(src)) > limit {
		return nil, tooLarge(name, limit)
	}
	return src, nil
}

func limitOrDefault(limit int64) int64 {
	if limit <= 0 {
		return MaxFileSize
	}
	return limit
}

func tooLarge(name string, limit int64) error {
	return ErrorList{{File: name, Msg: fmt.Sprintf("larger than %s, the limit on an input file (rmacheck --max-file-size raises it)",
		SizeString(limitOrDefault(limit)))}}
}

// SizeString prints a byte count as the --max-file-size flag reads it: 16MiB, 512KiB, 100B.
func SizeString(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

// reason is the part of a file-system error worth showing after the file name.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// maxEcho bounds how much of one argument of a message (a token, a name) is echoed.
const maxEcho = 256

// capArgs shortens the long string arguments of a message: a 1 MB garbage token is
// shown as its first maxEcho bytes and its length, not whole.
func capArgs(args []any) []any {
	copied := false
	for i, a := range args {
		s, ok := a.(string)
		if !ok || len(s) <= maxEcho {
			continue
		}
		n := maxEcho
		for n > 0 && s[n]&0xC0 == 0x80 { // not in the middle of a UTF-8 sequence
			n--
		}
		if !copied {
			args, copied = append([]any(nil), args...), true
		}
		args[i] = fmt.Sprintf("%s... (%d bytes)", s[:n], len(s))
	}
	return args
}
