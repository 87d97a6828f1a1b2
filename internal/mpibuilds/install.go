package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Result is what installing a build came to.
type Result struct {
	Build  string
	Status string // ok, refused (the package manager would not install it) or broken (installed, but it cannot compile or run a program)
	Prefix string
	Why    string // why it is refused or broken
	// Library is the first line of MPI_Get_library_version of a program built and run
	// on the install.
	Library string
	Holds   []string // which of the tools, header and library the install holds
	Lacks   []string
	Notes   []string // what the package manager warned of (dependencies left out)
	Reused  bool
	Took    time.Duration // the install (not the check)
	Bytes   int64
}

// installed is the stamp a finished pip install leaves in its directory: a later
// run reuses the install while the list's entry for it is the same.
type installed struct {
	Pip      []string `json:"pip"`
	ToolEnv  []string `json:"tool_env,omitempty"`
	Seconds  float64  `json:"seconds"`
	PipCheck string   `json:"pip_check,omitempty"`
}

const stampName = "installed.json"

// timeouts: a pip install of a 130 MB wheel, an apt-get install, a compile and a run
// of two ranks, on a loaded machine.
const (
	installTimeout = 15 * time.Minute
	checkTimeout   = 2 * time.Minute
)

// Install installs the build into the cache (or reuses what is there) and checks it
// by building and running a program on two ranks over its first transport.
func Install(ctx context.Context, b Build, cache string) Result {
	r := Result{Build: b.Name, Prefix: b.Prefix(cache)}
	var err error
	if b.Debian != nil {
		err = installDebian(ctx, b, &r)
	} else {
		err = installPip(ctx, b, cache, &r)
	}
	if err != nil {
		r.Status, r.Why = "refused", err.Error()
		return r
	}
	if b.wrapped() {
		if err := writeWrappers(b, cache); err != nil {
			r.Status, r.Why = "broken", err.Error()
			return r
		}
	}
	if b.Debian == nil {
		r.Holds, r.Lacks = holds(b.venv(cache))
		r.Bytes = dirBytes(b.Dir(cache))
	}
	r.Library, err = checkBuild(ctx, b, r.Prefix)
	if err != nil {
		r.Status, r.Why = "broken", err.Error()
		return r
	}
	r.Status = "ok"
	return r
}

// installPip makes the build's virtual environment and installs its pinned packages
// into it, or reuses the one a previous run left for the same packages.
func installPip(ctx context.Context, b Build, cache string, r *Result) error {
	dir := b.Dir(cache)
	stampPath := filepath.Join(dir, stampName)
	if s, err := readStamp(stampPath); err == nil && slices.Equal(s.Pip, b.Pip) && slices.Equal(s.ToolEnv, b.ToolEnv) {
		r.Reused, r.Took = true, time.Duration(s.Seconds*float64(time.Second))
		r.Notes = pipNotes(s.PipCheck)
		return nil
	}
	start := time.Now()
	// A partial or outdated install is made again from nothing: a venv holding
	// another version's files would be neither build.
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	venv := b.venv(cache)
	ctx, cancel := context.WithTimeout(ctx, installTimeout)
	defer cancel()
	if out, err := run(ctx, nil, "python3", "-m", "venv", venv); err != nil {
		return fmt.Errorf("python3 -m venv: %v: %s", err, lastLines(out, 3))
	}
	// --no-deps: the list pins every package the build is made of; pip check below
	// names a dependency the wheels declare and the list leaves out.
	args := append([]string{"install", "--no-deps", "--disable-pip-version-check", "--quiet"}, b.Pip...)
	if out, err := run(ctx, nil, filepath.Join(venv, "bin", "pip"), args...); err != nil {
		return fmt.Errorf("pip install %s: %v: %s", strings.Join(b.Pip, " "), err, pipErrors(out))
	}
	r.Took = time.Since(start)
	check, _ := run(ctx, nil, filepath.Join(venv, "bin", "pip"), "check", "--disable-pip-version-check")
	r.Notes = pipNotes(string(check))
	return writeStamp(stampPath, installed{Pip: b.Pip, ToolEnv: b.ToolEnv, Seconds: r.Took.Seconds(), PipCheck: string(check)})
}

// installDebian checks that the build's packages are installed at the pinned
// version, and installs them with apt-get where it can (as root).
func installDebian(ctx context.Context, b Build, r *Result) error {
	d := b.Debian
	missing := debianMissing(ctx, d)
	if len(missing) == 0 {
		r.Reused = true
		return nil
	}
	if os.Geteuid() != 0 {
		return fmt.Errorf("%s: not at %s, and apt-get needs root", strings.Join(missing, ", "), d.Version)
	}
	pins := make([]string, len(d.Packages))
	for i, p := range d.Packages {
		pins[i] = p + "=" + d.Version
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, installTimeout)
	defer cancel()
	env := []string{"DEBIAN_FRONTEND=noninteractive"}
	install := append([]string{"install", "-y", "-qq"}, pins...)
	if _, err := run(ctx, env, "apt-get", install...); err != nil {
		// The package lists may be older than the pinned version: once more after an update.
		run(ctx, env, "apt-get", "update", "-qq")
		if out, err := run(ctx, env, "apt-get", install...); err != nil {
			return fmt.Errorf("apt-get install %s: %v: %s", strings.Join(pins, " "), err, lastLines(out, 3))
		}
	}
	r.Took = time.Since(start)
	if missing := debianMissing(ctx, d); len(missing) > 0 {
		return fmt.Errorf("after apt-get install, %s still not at %s", strings.Join(missing, ", "), d.Version)
	}
	return nil
}

// debianMissing are the packages not installed at the pinned version, each with
// the version it has.
func debianMissing(ctx context.Context, d *Debian) []string {
	var missing []string
	for _, p := range d.Packages {
		out, err := run(ctx, nil, "dpkg-query", "-W", "-f", "${db:Status-Abbrev}${Version}", p)
		have := strings.TrimSpace(string(out))
		switch {
		case err != nil || !strings.HasPrefix(have, "ii"):
			missing = append(missing, p+" (not installed)")
		case strings.TrimSpace(strings.TrimPrefix(have, "ii")) != d.Version:
			missing = append(missing, fmt.Sprintf("%s (%s here)", p, strings.TrimSpace(strings.TrimPrefix(have, "ii"))))
		}
	}
	return missing
}

// wrapper is a generated bin/mpicc or bin/mpiexec of a build's prefix: it runs the
// install's tool (a path relative to the build's directory, or a name on PATH) with
// the settings the tool needs.
func wrapper(b Build, tool, target string) string {
	var s strings.Builder
	fmt.Fprintf(&s, "#!/bin/sh\n# Generated by internal/mpibuilds for %s (reports/matrix/builds.json): runs its %s.\n", b.Name, tool)
	s.WriteString("dir=$(CDPATH= cd -- \"$(dirname -- \"$0\")/..\" && pwd)\n")
	for _, kv := range b.ToolEnv {
		name, value, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&s, "%s=%s; export %s\n", name, shellValue(value), name)
	}
	if filepath.IsAbs(target) || !strings.Contains(target, "/") {
		fmt.Fprintf(&s, "exec %s \"$@\"\n", shellQuote(target))
	} else {
		fmt.Fprintf(&s, "exec \"$dir\"/%s \"$@\"\n", shellQuote(target))
	}
	return s.String()
}

// shellValue quotes a tool_env value for sh, {venv} becoming the build's
// environment beside the wrapper.
func shellValue(v string) string {
	parts := strings.Split(v, "{venv}")
	for i, p := range parts {
		parts[i] = shellQuote(p)
	}
	return strings.Join(parts, "\"$dir\"/venv")
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// writeWrappers writes the build's generated bin/mpicc and bin/mpiexec.
func writeWrappers(b Build, cache string) error {
	mpicc, mpiexec := "venv/bin/mpicc", "venv/bin/mpiexec"
	if b.Debian != nil {
		mpicc, mpiexec = b.Debian.MPICC, b.Debian.MPIExec
	}
	bin := filepath.Join(b.Dir(cache), "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	for tool, target := range map[string]string{"mpicc": mpicc, "mpiexec": mpiexec} {
		if err := os.WriteFile(filepath.Join(bin, tool), []byte(wrapper(b, tool, target)), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// holdsWhat are the files conform --mpi and a compiler need of an install.
var holdsWhat = []string{"bin/mpicc", "bin/mpiexec", "include/mpi.h", "lib/libmpi.so"}

// holds says which of holdsWhat the install at root has.
func holds(root string) (have, lack []string) {
	for _, f := range holdsWhat {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			have = append(have, f)
		} else {
			lack = append(lack, f)
		}
	}
	return have, lack
}

// helloC prints the library's own version line from rank 0 and the number of ranks.
const helloC = `#include <mpi.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_library_version(v, &len);
    v[strcspn(v, "\n")] = 0;
    if (rank == 0) printf("LIBRARY %s\nRANKS %d\n", v, size);
    MPI_Finalize();
    return 0;
}
`

// rootEnv lets Open MPI's launcher run as root (as conform's --allow-run-as-root
// does); other libraries ignore it.
var rootEnv = []string{"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"}

// checkBuild compiles a program with the prefix's mpicc and runs it on two ranks with
// its mpiexec over the build's first transport, and returns the library's version
// line, which must name the build's version.
func checkBuild(ctx context.Context, b Build, prefix string) (string, error) {
	dir, err := os.MkdirTemp("", "mpibuilds-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	src, prog := filepath.Join(dir, "hello.c"), filepath.Join(dir, "hello")
	if err := os.WriteFile(src, []byte(helloC), 0o644); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	env := append(slices.Clip(b.Transports[0].Env), rootEnv...)
	if out, err := run(ctx, env, filepath.Join(prefix, "bin", "mpicc"), "-o", prog, src); err != nil {
		return "", fmt.Errorf("bin/mpicc: %v: %s", err, lastLines(out, 4))
	}
	out, err := run(ctx, env, filepath.Join(prefix, "bin", "mpiexec"), "-n", "2", prog)
	if err != nil {
		return "", fmt.Errorf("bin/mpiexec -n 2: %v: %s", err, lastLines(out, 4))
	}
	lib, ranks := outputLine(out, "LIBRARY "), outputLine(out, "RANKS ")
	if ranks != "2" {
		return lib, fmt.Errorf("bin/mpiexec -n 2 ran %q ranks, not 2 in one job: %s", ranks, lastLines(out, 4))
	}
	if !versionIn(b.Version, lib) {
		return lib, fmt.Errorf("the library says %q, not version %s", lib, b.Version)
	}
	return lib, nil
}

// versionIn reports whether the line names version as a whole number (4.1.8 in
// "Open MPI v4.1.8, package", not in "4.1.80").
func versionIn(version, line string) bool {
	return regexp.MustCompile(`(^|[^0-9.])` + regexp.QuoteMeta(version) + `([^0-9.]|\.?$)`).MatchString(line)
}

func outputLine(out []byte, prefix string) string {
	for line := range strings.Lines(string(out)) {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// run runs a command with env over this process's environment and returns its
// output (standard output and error together). When ctx ends, the command's whole
// process group is killed: a launcher's ranks too.
func run(ctx context.Context, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	ownGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("%w (%v)", context.Cause(ctx), err)
	}
	return out.Bytes(), err
}

// pipErrors are pip's ERROR lines, or its last lines when it printed none.
func pipErrors(out []byte) string {
	var errs []string
	for line := range strings.Lines(string(out)) {
		if strings.HasPrefix(line, "ERROR:") {
			errs = append(errs, strings.TrimSpace(line))
		}
	}
	if len(errs) == 0 {
		return lastLines(out, 3)
	}
	return strings.Join(errs, "; ")
}

// pipNotes are the lines of pip check's output that name a problem.
func pipNotes(check string) []string {
	var notes []string
	for line := range strings.Lines(check) {
		if line = strings.TrimSpace(line); line != "" && line != "No broken requirements found." {
			notes = append(notes, "pip check: "+line)
		}
	}
	return notes
}

func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

func readStamp(path string) (installed, error) {
	var s installed
	data, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	return s, json.Unmarshal(data, &s)
}

func writeStamp(path string, s installed) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// dirBytes is the size of the files under dir.
func dirBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
		return nil
	})
	return n
}
