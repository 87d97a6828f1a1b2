package conform

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rmacheck/rmacheck/conform/cgen"
	"github.com/rmacheck/rmacheck/internal/atomicfile"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/reference"
	"github.com/rmacheck/rmacheck/spec"
)

// Library describes how to build and run programs with one MPI library.
type Library struct {
	Target   string   // mpich, openmpi
	Name     string   // MPICH, Open MPI
	CC       string   // the compiler wrapper
	Exec     string   // the launcher
	ExecArgs []string // before -n N
	Packages string   // the Debian packages that provide it
	// BusyPolls: the library spins while it waits, so more ranks than cores crawl.
	BusyPolls bool
}

// Libraries are the real-MPI targets.
var Libraries = map[string]Library{
	"mpich": {Target: "mpich", Name: "MPICH", CC: "mpicc.mpich", Exec: "mpiexec.mpich",
		Packages: "mpich libmpich-dev", BusyPolls: true},
	// --mca osc ^rdma: the default RMA component of Open MPI 4.1 crashes on atomics.
	"openmpi": {Target: "openmpi", Name: "Open MPI", CC: "mpicc.openmpi", Exec: "mpiexec.openmpi",
		ExecArgs: []string{"--allow-run-as-root", "--oversubscribe", "--mca", "osc", "^rdma"},
		Packages: "openmpi-bin libopenmpi-dev"},
}

// Version is the library's name and version, as its launcher reports it ("MPICH 4.0.2").
func (lib Library) Version() string {
	libVersions.Lock()
	defer libVersions.Unlock()
	if v, ok := libVersions.m[lib.Target]; ok {
		return v
	}
	v := lib.Name
	if out, err := exec.Command(lib.Exec, "--version").CombinedOutput(); err == nil {
		if m := versionRE.FindStringSubmatch(string(out)); m != nil {
			v += " " + m[1]
		}
	}
	libVersions.m[lib.Target] = v
	return v
}

var (
	libVersions = struct {
		sync.Mutex
		m map[string]string
	}{m: map[string]string{}}
	// "Version:   4.0.2" (MPICH's hydra) or "mpiexec.openmpi (OpenRTE) 4.1.4".
	versionRE = regexp.MustCompile(`(?:Version:\s+|\) )([0-9][0-9.a-z]*)`)
)

// LookupLibrary finds a real-MPI target and checks that its tools are installed.
func LookupLibrary(target string) (Library, error) {
	lib, ok := Libraries[target]
	if !ok {
		return lib, fmt.Errorf("unknown target %q (expected reference, mpich or openmpi)", target)
	}
	for _, tool := range []string{lib.CC, lib.Exec} {
		if _, err := exec.LookPath(tool); err != nil {
			return lib, &MissingLibraryError{Lib: lib, Tool: tool}
		}
	}
	return lib, nil
}

// MissingLibraryError says which Debian packages provide a missing library.
type MissingLibraryError struct {
	Lib  Library
	Tool string
}

func (e *MissingLibraryError) Error() string {
	return fmt.Sprintf("%s is not installed (%s not found); install it with: apt-get install %s",
		e.Lib.Name, e.Tool, e.Lib.Packages)
}

// IsMissingLibrary reports whether err is a MissingLibraryError.
func IsMissingLibrary(err error) bool {
	var m *MissingLibraryError
	return errors.As(err, &m)
}

// CompileC compiles a C program with the library's wrapper (-O2 -Wall -Werror).
func (lib Library) CompileC(ctx context.Context, src, bin string) error {
	cmd := exec.CommandContext(ctx, lib.CC, "-O2", "-Wall", "-Werror", "-o", bin, src)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v\n%s", lib.CC, filepath.Base(src), err, out)
	}
	return nil
}

// Launch runs a program on n ranks and returns its standard output.
func (lib Library) Launch(ctx context.Context, n int, oversubscribe bool, bin string, args ...string) ([]byte, error) {
	if lib.BusyPolls && n > runtime.NumCPU() && !oversubscribe {
		return nil, fmt.Errorf("%s busy-polls: refusing to run %d ranks on %d cores (they would crawl, and the interleavings of interest get rare); --oversubscribe runs them anyway",
			lib.Name, n, runtime.NumCPU())
	}
	argv := append(append([]string{}, lib.ExecArgs...), "-n", strconv.Itoa(n), bin)
	cmd := exec.CommandContext(ctx, lib.Exec, append(argv, args...)...)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return stdout.Bytes(), fmt.Errorf("%s %s: timed out (%v)", lib.Exec, filepath.Base(bin), ctx.Err())
	}
	if err != nil {
		return stdout.Bytes(), fmt.Errorf("%s -n %d %s: %v\n%s%s", lib.Exec, n, filepath.Base(bin), err, tail(stdout.String()), tail(stderr.String()))
	}
	return stdout.Bytes(), nil
}

func tail(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 15 {
		lines = lines[len(lines)-15:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// MPI runs t on a real MPI library (target mpich or openmpi): the test's C program
// (conform/cgen) compiled with the library's mpicc and run opt.Runs times under its
// mpiexec. The histogram is compared with the outcomes the model allows for sem and
// the machine's hardware model, as Reference does.
func MPI(t *litmus.Test, sem spec.Semantics, target string, opt Options) (*Report, error) {
	lib, err := LookupLibrary(target)
	if err != nil {
		return nil, err
	}
	hw := MachineHW()
	if opt.HW != "" {
		if hw, err = model.ParseHW(opt.HW); err != nil {
			return nil, err
		}
	}
	rep, allowed, err := begin(t, sem, target, hw, opt)
	if rep != nil {
		rep.Library = lib.Version()
	}
	if err != nil || rep.Skipped != "" {
		return rep, err
	}
	src, err := cgen.Generate(t, cgen.Options{Jitter: opt.Jitter})
	if err != nil {
		return nil, err
	}
	runs := opt.Runs
	if runs == 0 {
		runs = 100_000
		if defaultRuns(allowed.Program) < 1_000_000 {
			runs = 10_000
		}
	}
	timeout := opt.Timeout
	if timeout == 0 {
		timeout = 30*time.Second + time.Duration(runs)*time.Millisecond
	}
	dir, err := os.MkdirTemp("", "rmacheck-"+target+"-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	name := cFileName(t)
	cfile, bin := filepath.Join(dir, name+".c"), filepath.Join(dir, name)
	if err := os.WriteFile(cfile, src, 0o644); err != nil {
		return nil, err
	}
	if opt.KeepDir != "" {
		if err := atomicfile.WriteFile(filepath.Join(opt.KeepDir, name+".c"), src, 0o644); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := lib.CompileC(ctx, cfile, bin); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	if opt.Progress != nil {
		opt.Progress(0, runs)
	}
	jitter := ""
	if opt.Jitter != 0 {
		jitter = strconv.Itoa(max(opt.Jitter, 0))
	}
	args := []string{strconv.Itoa(runs), strconv.FormatInt(opt.Seed, 10)}
	if jitter != "" {
		args = append(args, jitter)
	}
	out, err := lib.Launch(ctx, t.NumProcs(), opt.Oversubscribe, bin, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	if opt.Progress != nil {
		opt.Progress(runs, runs)
	}
	if err := rep.fromOutput(out, allowed.Program); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", t.Name, lib.Name, err)
	}
	if rep.Skipped == "" {
		rep.compare(rep.raw, allowed)
	}
	rep.raw = nil
	return rep, nil
}

func cFileName(t *litmus.Test) string {
	var b strings.Builder
	for _, r := range t.Name {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// fromOutput parses the program's output (cgen's format) into rep.raw, or rep.Skipped.
func (rep *Report) fromOutput(out []byte, p *model.Program) error {
	res := &reference.Result{Seed: rep.Seed}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sawHeader, sawTime := false, false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "RMACHECK":
			sawHeader = true
		case "MODEL":
			rep.Models = append(rep.Models, strings.Join(f[1:], " "))
		case "SKIP":
			rep.Skipped = "skipped: " + strings.TrimSpace(strings.TrimPrefix(line, "SKIP"))
			return nil
		case "ERROR":
			return fmt.Errorf("%s", line)
		case "OUTCOME":
			if len(f) != 2+len(p.Out) {
				return fmt.Errorf("bad line %q: want a count and %d values", line, len(p.Out))
			}
			n, err := strconv.Atoi(f[1])
			if err != nil {
				return fmt.Errorf("bad line %q: %v", line, err)
			}
			vals := make([]int64, len(p.Out))
			for i := range vals {
				if vals[i], err = strconv.ParseInt(f[2+i], 10, 64); err != nil {
					return fmt.Errorf("bad line %q: %v", line, err)
				}
			}
			res.Bins = append(res.Bins, reference.Bin{Values: vals, Count: n})
			res.Runs += n
		case "TIME":
			sec, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				return fmt.Errorf("bad line %q: %v", line, err)
			}
			res.Elapsed = time.Duration(sec * float64(time.Second))
			sawTime = true
		}
	}
	if !sawHeader || !sawTime {
		return fmt.Errorf("the program's output is incomplete:\n%s", tail(string(out)))
	}
	if res.Elapsed <= 0 {
		res.Elapsed = time.Nanosecond
	}
	slices.SortFunc(res.Bins, func(a, b reference.Bin) int { return slices.Compare(a.Values, b.Values) })
	rep.raw = res
	return nil
}
