package conform

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"iter"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/rmacheck/rmacheck/conform/cgen"
	"github.com/rmacheck/rmacheck/internal/atomicfile"
	"github.com/rmacheck/rmacheck/internal/supervise"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/reference"
)

// CompileC compiles a C program with the library's wrapper (-O2 -Wall -Werror).
func (lib Library) CompileC(ctx context.Context, src, bin string) error {
	out, errb, err := supervise.Run(ctx, []string{lib.CC, "-O2", "-Wall", "-Werror", "-o", bin, src}, lib.Env)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, supervise.ErrOutputCap) {
		return outputCapError(lib, lib.CC, out, errb)
	}
	if err != nil {
		if diskFull(out) || diskFull(errb) {
			return &DiskFullError{Dir: filepath.Dir(src), Output: tail(string(errb))}
		}
		return fmt.Errorf("%s %s: %v\n%s%s", lib.CC, filepath.Base(src), err, out, errb)
	}
	if _, err := os.Stat(bin); err != nil {
		// an mpicc that exits 0 and writes nothing was reported as mpiexec's
		// failure, "not found" (issue 38 row 18)
		return fmt.Errorf("%s %s exited 0 but wrote no program (%s): %v\n%s%s", lib.CC, filepath.Base(src), filepath.Base(bin), err, tail(string(out)), tail(string(errb)))
	}
	return nil
}

// diskFull says whether a compiler's output reports a full disk: gcc, as and ld
// print strerror(ENOSPC) when a write of theirs fails.
func diskFull(out []byte) bool {
	return bytes.Contains(bytes.ToLower(out), []byte(syscall.ENOSPC.Error())) // "no space left on device"
}

// DiskFullError is a compile that failed because the disk of its directory filled:
// bad environment, not a library problem (rmacheck exits 2, not 3: issue 38 row 10).
type DiskFullError struct {
	Dir    string // the directory the compiler wrote in
	Output string // the end of the compiler's messages
}

func (e *DiskFullError) Error() string {
	return fmt.Sprintf("the disk holding %s is full (no space left on device) while compiling: free space there, or set $TMPDIR to a directory on a larger disk\n%s", e.Dir, e.Output)
}

// Unwrap makes errors.Is(err, syscall.ENOSPC) hold.
func (e *DiskFullError) Unwrap() error { return syscall.ENOSPC }

// LaunchOptions say how a program's ranks are started.
type LaunchOptions struct {
	// Oversubscribe lets MPICH run more ranks than cores on this machine (conform's
	// default, with a note; Oversubscribed).
	Oversubscribe bool
	// Launcher replaces the library's mpiexec and its options: a cluster's launcher
	// such as srun -N 2 --ntasks-per-node 1, or mpiexec -hosts a,b. "-n N", the
	// program and its arguments follow it.
	Launcher []string
	// Hostfile is given to the library's mpiexec (-f for MPICH, --hostfile for Open MPI).
	Hostfile string
}

// Command is the launcher's command line for n ranks, before the program.
func (lib Library) Command(n int, opt LaunchOptions) []string {
	return append(lib.launcher(opt), "-n", strconv.Itoa(n))
}

// launcher is the launcher's command line before "-n N".
func (lib Library) launcher(opt LaunchOptions) []string {
	if len(opt.Launcher) > 0 {
		return slices.Clone(opt.Launcher)
	}
	argv := append([]string{lib.Exec}, lib.ExecArgs...)
	if opt.Hostfile != "" {
		argv = append(argv, lib.HostfileFlag, opt.Hostfile)
	}
	return argv
}

// Oversubscribed reports whether n ranks of lib started here would share this
// machine's cores while they busy-poll (MPICH): they crawl, and the interleavings that
// need the ranks side by side get rare. Launch refuses them unless opt.Oversubscribe.
func (lib Library) Oversubscribed(n int, opt LaunchOptions) bool {
	local := len(opt.Launcher) == 0 && opt.Hostfile == ""
	return lib.BusyPolls && local && n > runtime.NumCPU()
}

// Launch runs a program on n ranks and returns its standard output. An error that
// means the library could not run the program is a *RunError; when ctx ends, the
// launcher and its ranks are stopped (supervise.Run) and the error is ctx's cause.
func (lib Library) Launch(ctx context.Context, n int, opt LaunchOptions, bin string, args ...string) ([]byte, error) {
	if lib.Oversubscribed(n, opt) && !opt.Oversubscribe {
		return nil, &RunError{Lib: lib.Family.Name(), Reason: fmt.Sprintf("%s busy-polls: refusing to run %d ranks on %d cores (they would crawl, and the interleavings of interest get rare)",
			lib.Family.Name(), n, runtime.NumCPU()), Hint: "--oversubscribe runs them anyway", Refused: true}
	}
	argv := append(append(lib.Command(n, opt), bin), args...)
	stdout, stderr, err := supervise.Run(ctx, argv, lib.Env)
	if ctx.Err() != nil {
		return stdout, ctx.Err()
	}
	if errors.Is(err, supervise.ErrOutputCap) {
		return nil, outputCapError(lib, argv[0], stdout, stderr)
	}
	if err != nil {
		return stdout, &RunError{Lib: lib.Family.Name(), Reason: fmt.Sprintf("%s -n %d %s: %v", argv[0], n, filepath.Base(bin), err),
			Output: tail(string(stdout)) + tail(string(stderr))}
	}
	return stdout, nil
}

// RunError is a test a library could not run: refused, crashed, stopped with an MPI
// error or at the program's spin limit, or timed out. rmacheck conform exits 3 for it.
type RunError struct {
	Test   string // the test, when known
	Lib    string // MPICH, Open MPI
	Reason string // what happened
	Hint   string // what to do about it, when something can be done
	Output string // the end of the program's output, when it helps
	// Starved: the run timed out on a loaded machine (CPUPressure over one half), so the
	// timeout may say more about the machine than about the library.
	Starved bool
	// Refused: the run was not attempted (a busy-polling library, more ranks than cores).
	Refused bool
	// TimedOut: the run did not finish within the timeout (ClassifyHang tells an
	// allowed hang from a defect).
	TimedOut bool
}

func (e *RunError) Error() string {
	var b strings.Builder
	if e.Test != "" {
		b.WriteString(e.Test + ": ")
	}
	b.WriteString(e.Summary())
	if e.Output != "" {
		b.WriteString("\n" + strings.TrimRight(e.Output, "\n"))
	}
	return b.String()
}

// Summary says what happened and what to do about it, without the test's name and
// the program's output: "MPICH could not run the test: REASON; HINT".
func (e *RunError) Summary() string {
	s := fmt.Sprintf("%s could not run the test: %s", e.Lib, e.Reason)
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
}

// CannotRun reports whether err means that the target could not run the test (a
// RunError or a missing library), not that the test or its input is wrong.
func CannotRun(err error) bool {
	var re *RunError
	return errors.As(err, &re) || IsMissingLibrary(err)
}

func tail(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 15 {
		lines = lines[len(lines)-15:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return ""
	}
	for i, l := range lines {
		lines[i] = cutLine(l)
	}
	return strings.Join(lines, "\n") + "\n"
}

// maxEchoedLine bounds one line of a child's output quoted in an error: a 70 KB line
// before the results was echoed whole (issue 38 row 8).
const maxEchoedLine = 200

// cutLine is a line of a child's output as an error quotes it: at most maxEchoedLine
// bytes, cut at a rune boundary, with the line's length when cut.
func cutLine(l string) string {
	if len(l) <= maxEchoedLine {
		return l
	}
	n := maxEchoedLine
	for n > 0 && !utf8.RuneStart(l[n]) {
		n--
	}
	return fmt.Sprintf("%s… (a line of %d bytes, cut)", l[:n], len(l))
}

// outputLines yields the lines of a child's output, each whole however long (the
// output is already bounded by supervise's cap): a bufio.Scanner stopped at its 64 KiB
// token limit, and a long line before the results read as "output is incomplete".
func outputLines(out []byte) iter.Seq[string] {
	return func(yield func(string) bool) {
		for line := range bytes.Lines(out) {
			if !yield(string(bytes.TrimRight(line, "\r\n"))) {
				return
			}
		}
	}
}

// MPI is an MPI library as a target, with how its programs are launched.
type MPI struct {
	Lib    Library
	Launch LaunchOptions
	// Timeout bounds one compile and one run (0: 30 s plus 1 ms per iteration).
	Timeout time.Duration
	// Jitter bounds each rank's random start delay in pause instructions (0: the
	// generator's default; -1: none).
	Jitter int
	// KeepDir, when set, receives the generated C program as NAME.c.
	KeepDir string
	// MaxWindowBytes bounds a rank's window segment in the C program (0:
	// cgen.DefaultMaxWindowBytes).
	MaxWindowBytes int
}

// Info is the library (its family and version, where it is installed, its
// transport) and the launcher its programs run under.
func (m MPI) Info() TargetInfo {
	lib := m.Lib
	return TargetInfo{Kind: KindMPI, Family: lib.Family, Version: lib.LibraryVersion(), Prefix: lib.Prefix,
		Transport: lib.Transport, Launcher: strings.Join(lib.launcher(m.Launch), " ")}
}

// DefaultRuns is 10^5 for programs without MPI calls, 10^4 for the others.
func (MPI) DefaultRuns(p *model.Program) int {
	if hasMPI(p) {
		return 10_000
	}
	return 100_000
}

// Execute runs the test on the library: its C program (conform/cgen) compiled with
// the library's mpicc and run x.Runs times under its mpiexec, within the timeout.
func (m MPI) Execute(x Execution) (*Histogram, error) {
	lib, t := m.Lib, x.Test
	if err := lib.Installed(); err != nil {
		return nil, err
	}
	dir, cfile, err := m.writeC(t)
	if err != nil {
		return nil, err
	}
	defer supervise.RemoveDir(dir) // on every return; an interrupt cancels x.Context and returns here
	bin := strings.TrimSuffix(cfile, ".c")
	ctx, stopClock := supervise.WithClock(x.Context, cmp.Or(m.Timeout, defaultTimeout(x.Runs))) // the time the run could run, not wall time
	defer stopClock()
	// stopped is the error of a run that ctx ended: the caller's cause (an interrupt),
	// or the timeout, with what to do about it.
	stopped := func(what string) error {
		if x.Context.Err() != nil {
			return fmt.Errorf("%s: %w", t.Name, context.Cause(x.Context))
		}
		re := &RunError{Lib: lib.Family.Name(), TimedOut: what == "the run", Reason: stopClock().Describe(what),
			Hint: "--timeout raises the bound (default 30s + 1ms per iteration); a library that hangs on the test needs no more time"}
		if p, ok := supervise.CPUPressure(); ok && p > 0.5 {
			re.Reason += fmt.Sprintf(" on a loaded machine (tasks waited for a CPU %.0f%% of the last 10 s)", 100*p)
			re.Starved = true
		}
		return re
	}
	if err := lib.CompileC(ctx, cfile, bin); err != nil {
		if ctx.Err() != nil {
			return nil, stopped("compiling")
		}
		if re := (*RunError)(nil); errors.As(err, &re) {
			return nil, re
		}
		if errors.Is(err, syscall.ENOSPC) { // the environment's, not the library's
			return nil, err
		}
		return nil, &RunError{Lib: lib.Family.Name(), Reason: err.Error()}
	}
	x.progress(0)
	launched := time.Now()
	out, err := lib.Launch(ctx, t.NumProcs(), m.Launch, bin, m.programArgs(x)...)
	wall := time.Since(launched)
	h := &Histogram{Placement: &Placement{Launcher: strings.Join(lib.Command(t.NumProcs(), m.Launch), " ")}}
	if line := spinLimit(out); line != "" {
		// a spin loop that never exits on this library: a finding the report shows
		// (the command exits 3: the test could not run to its end)
		h.SpinLimit = line
		return h, nil
	}
	if cause := programTrouble(out); cause != nil { // an ERROR line: what the program said first
		cause.Lib = lib.Family.Name()
		return nil, cause
	}
	if ctx.Err() != nil {
		return nil, stopped("the run")
	}
	if re := (*RunError)(nil); errors.As(err, &re) {
		return nil, re
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	x.progress(x.Runs)
	if err := h.parse(out, x.Program, x.Runs); err != nil {
		return nil, &RunError{Lib: lib.Family.Name(), Reason: err.Error()}
	}
	// The rate is of the target's execution: the launch's wall time (start-up, windows
	// and every iteration), not the program's own TIME of the iterations alone, which
	// rank 0 reads from a clock that a few fast iterations leave near zero.
	h.Elapsed = wall
	return h, nil
}

// writeC writes the test's C program into a run directory of its own (and into
// KeepDir), and returns both.
func (m MPI) writeC(t *litmus.Test) (dir, cfile string, err error) {
	src, err := cgen.Generate(t, cgen.Options{Jitter: m.Jitter, MaxWindowBytes: m.MaxWindowBytes})
	if err != nil {
		return "", "", err
	}
	dir, err = supervise.MakeDir(m.Lib.Family.String()) // rmacheck-FAMILY-PID-*: the next run removes it if this one is killed
	if err != nil {
		return "", "", err
	}
	name := cFileName(t)
	cfile = filepath.Join(dir, name+".c")
	if err = os.WriteFile(cfile, src, 0o644); err == nil && m.KeepDir != "" {
		err = atomicfile.WriteOutput(filepath.Join(m.KeepDir, name+".c"), src, 0o644)
	}
	if err != nil {
		supervise.RemoveDir(dir)
		return "", "", err
	}
	return dir, cfile, nil
}

// programArgs are the C program's arguments: the runs, the seed and the jitter.
func (m MPI) programArgs(x Execution) []string {
	args := []string{strconv.Itoa(x.Runs), strconv.FormatInt(x.Seed, 10)}
	if m.Jitter != 0 {
		args = append(args, strconv.Itoa(max(m.Jitter, 0)))
	}
	return args
}

// progress tells x.Progress how many runs are done, when it is set.
func (x Execution) progress(done int) {
	if x.Progress != nil {
		x.Progress(done)
	}
}

// spinLimit is the program's SPIN-LIMIT line (cgen: a loop passed its spin bound and
// the program stopped), or "".
func spinLimit(out []byte) string {
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "SPIN-LIMIT") {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// programTrouble finds the line of the program's output that says why it stopped:
// an ERROR line (an MPI call failed, and the program aborted). A SPIN-LIMIT line is
// a finding of the report (spinLimit).
func programTrouble(out []byte) *RunError {
	for line := range outputLines(out) {
		line = strings.TrimSpace(line)
		if f := strings.Fields(line); len(f) > 0 && f[0] == "ERROR" {
			return &RunError{Reason: "the program stopped with an error: " + cutLine(strings.TrimSpace(strings.TrimPrefix(line, "ERROR"))),
				Hint: "--keep-c DIR keeps the C to run it again by hand"}
		}
	}
	return nil
}

// cFileName is the file name (without .c) of a test's C program: the test's name,
// which the header restricts to [A-Za-z0-9_.+-], kept as it is so that different tests
// get different files (X+Y and X_Y were both X_Y.c, and --keep-c lost one), with
// any other byte as %XX, and "_" put first when the name starts with "." or "_" (a test
// named ".." compiled its program over the temporary directory itself). A name over
// maxCFileName bytes is cut and ends with "~" and a hash of the whole name ("~" is
// always escaped, so a cut name is no other test's): a 300-byte name passed check and
// failed conform with "file name too long" (NAME_MAX is 255; issue 38 row 9).
func cFileName(t *litmus.Test) string {
	var b strings.Builder
	if strings.HasPrefix(t.Name, ".") || strings.HasPrefix(t.Name, "_") || t.Name == "" {
		b.WriteByte('_')
	}
	for i := 0; i < len(t.Name); i++ {
		c := t.Name[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.+", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	name := b.String()
	if len(name) <= maxCFileName {
		return name
	}
	sum := sha256.Sum256([]byte(t.Name))
	tag := fmt.Sprintf("~%x", sum[:8])
	return name[:maxCFileName-len(tag)] + tag
}

// maxCFileName bounds a C file's name without ".c": NAME_MAX (255 on Linux and
// macOS) less room for ".c" and the temporary names --keep-c writes through.
const maxCFileName = 200

// parse reads the program's output (cgen's format) into the histogram, or Skipped.
// The histogram must count exactly the runs asked, each outcome at least once: a
// launcher that printed the header and TIME but no OUTCOME line read as "Never 0 0",
// and two counts of 2^63-1 as a negative number of runs.
func (h *Histogram) parse(out []byte, p *model.Program, runs int) error {
	sawHeader, sawTime := false, false
	for line := range outputLines(out) {
		line = strings.TrimSpace(line)
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "RMACHECK":
			sawHeader = true
		case "MODEL":
			h.Models = append(h.Models, strings.Join(f[1:], " "))
		case "PLACEMENT":
			if h.Placement == nil {
				h.Placement = &Placement{}
			}
			h.Placement.parse(f[1:])
		case "SKIP":
			h.Skipped = "skipped: " + strings.TrimSpace(strings.TrimPrefix(line, "SKIP"))
			return nil
		case "ERROR":
			return fmt.Errorf("%s", cutLine(line))
		case "OUTCOME":
			if len(f) != 2+len(p.Out) {
				return fmt.Errorf("bad line %q: want a count and %d values", cutLine(line), len(p.Out))
			}
			n, err := strconv.Atoi(f[1])
			if err != nil {
				return fmt.Errorf("bad line %q: %s", cutLine(line), cutLine(err.Error()))
			}
			if n < 1 || n > runs-h.Runs {
				return fmt.Errorf("bad line %q: a count of %d, with %d of the %d runs asked already counted", cutLine(line), n, h.Runs, runs)
			}
			vals := make([]int64, len(p.Out))
			for i := range vals {
				if vals[i], err = strconv.ParseInt(f[2+i], 10, 64); err != nil {
					return fmt.Errorf("bad line %q: %s", cutLine(line), cutLine(err.Error()))
				}
			}
			h.Bins = append(h.Bins, reference.Bin{Values: vals, Count: n})
			h.Runs += n
		case "TIME":
			sec, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				return fmt.Errorf("bad line %q: %s", cutLine(line), cutLine(err.Error()))
			}
			h.Elapsed = time.Duration(sec * float64(time.Second))
			sawTime = true
		}
	}
	if !sawHeader || !sawTime {
		return fmt.Errorf("the program's output is incomplete:\n%s", tail(string(out)))
	}
	if h.Runs != runs {
		return fmt.Errorf("the program's histogram counts %d runs of the %d asked:\n%s", h.Runs, runs, tail(string(out)))
	}
	if h.Elapsed <= 0 {
		h.Elapsed = time.Nanosecond
	}
	slices.SortFunc(h.Bins, func(a, b reference.Bin) int { return slices.Compare(a.Values, b.Values) })
	return nil
}

// Placement says where the ranks of a real-MPI run ran: the launcher's command line and
// each rank's node, as the program reports them (its PLACEMENT line).
type Placement struct {
	Launcher string   // the launcher and its options, the program excluded
	Nodes    int      // how many nodes the ranks ran on (0: not reported)
	Hosts    []string // each rank's processor name, by rank
}

// parse reads the fields of "PLACEMENT nodes=K 0:host 1:host ...".
func (p *Placement) parse(fields []string) {
	for _, f := range fields {
		if v, ok := strings.CutPrefix(f, "nodes="); ok {
			p.Nodes, _ = strconv.Atoi(v)
		} else if r, host, ok := strings.Cut(f, ":"); ok {
			if k, err := strconv.Atoi(r); err == nil && k == len(p.Hosts) {
				p.Hosts = append(p.Hosts, host)
			}
		}
	}
}

// String is "2 ranks on 1 node (localhost) via mpiexec.mpich -n 2".
func (p *Placement) String() string {
	var b strings.Builder
	if p.Nodes > 0 {
		hosts := slices.Compact(slices.Sorted(slices.Values(p.Hosts)))
		fmt.Fprintf(&b, "%d ranks on %d node", len(p.Hosts), p.Nodes)
		if p.Nodes != 1 {
			b.WriteString("s")
		}
		if len(hosts) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(hosts, ", "))
		}
		b.WriteString(" ")
	}
	b.WriteString("via " + p.Launcher)
	return b.String()
}

// defaultTimeout bounds a compile and a run of that many iterations: 30 s plus 1 ms an
// iteration, saturating (--runs 9300000000000 overflowed into a negative timeout that
// stopped the run at once).
func defaultTimeout(runs int) time.Duration {
	const base, perRun = 30 * time.Second, time.Millisecond
	if runs >= int((math.MaxInt64-base)/perRun) {
		return math.MaxInt64
	}
	return base + time.Duration(runs)*perRun
}

// outputCapError is the RunError of a compile or run stopped because what tool printed
// passed OutputCap, with the start and the end of what it printed.
func outputCapError(lib Library, tool string, stdout, stderr []byte) *RunError {
	return &RunError{Lib: lib.Family.Name(),
		Reason: fmt.Sprintf("%s printed more than %d MiB, so it was stopped (a launcher or a rank that prints without end)", tool, supervise.OutputCap>>20),
		Hint:   "check the launcher (--launcher) and the program's output by hand (--keep-c DIR keeps the C)",
		Output: headTail(stdout) + headTail(stderr)}
}

// headTail is the first and the last lines of a program's output, for a message.
func headTail(b []byte) string {
	const keep = 2048
	if len(b) <= 2*keep {
		return tail(string(b))
	}
	return string(b[:keep]) + "\n[...]\n" + string(b[len(b)-keep:]) + "\n"
}
