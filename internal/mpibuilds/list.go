package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// List is the committed list of MPI library builds (reports/matrix/builds.json): what
// each is, how it installs, and how each of its transports is selected, with what a
// conform run over it did when the list was last checked.
type List struct {
	// Checked is the date the transports' statuses were last checked (YYYY-MM-DD).
	Checked string  `json:"checked"`
	Note    string  `json:"note,omitempty"`
	Builds  []Build `json:"builds"`
}

// Build is one library build: a Debian package set or pinned PyPI packages.
type Build struct {
	Name    string  `json:"name"`    // the cache directory's name and the matrix column's
	Family  string  `json:"family"`  // mpich, openmpi or impi
	Version string  `json:"version"` // the release, as MPI_Get_library_version says it
	Debian  *Debian `json:"debian,omitempty"`
	// Pip are the packages pip installs into the build's virtual environment, each
	// pinned (name==version) and installed without dependency resolution, so that the
	// build is these files and no others.
	Pip []string `json:"pip,omitempty"`
	// ToolEnv are settings the wheel's own mpicc and mpiexec need (NAME=VALUE, {venv}
	// standing for the environment's path): when given, bin/mpicc and bin/mpiexec of
	// the build's prefix are generated wrappers that set them.
	ToolEnv []string `json:"tool_env,omitempty"`
	// Holds says what the install holds: device, bundled transports, tools.
	Holds      string      `json:"holds,omitempty"`
	Note       string      `json:"note,omitempty"`
	Transports []Transport `json:"transports"`
}

// Debian is a build from Debian's packages, whose tools carry a suffix
// (mpicc.mpich): the build's prefix holds generated bin/mpicc and bin/mpiexec that
// run them.
type Debian struct {
	Packages []string `json:"packages"`
	Version  string   `json:"version"` // every package's, as dpkg-query says it
	MPICC    string   `json:"mpicc"`
	MPIExec  string   `json:"mpiexec"`
}

// Transport is one way to make the build's ranks talk on one node, as conform's
// options: the transport profile (conform --transport), environment settings and,
// where the profile's launcher options do not fit this version, a launcher.
type Transport struct {
	Name    string   `json:"name"`
	Profile string   `json:"profile"`
	Env     []string `json:"env,omitempty"`
	// Launcher replaces mpiexec and the profile's options (conform --launcher);
	// {prefix} stands for the build's prefix.
	Launcher string `json:"launcher,omitempty"`
	// Path is what the library's own verbose output says this transport exercises.
	Path   string `json:"path"`
	Status string `json:"status"`          // ok or fails
	Error  string `json:"error,omitempty"` // the message, when it fails
	Note   string `json:"note,omitempty"`
}

// families are the MPI families a build may be of (Intel MPI, impi, is a family of
// the list before conform knows its launcher).
var families = []string{"mpich", "openmpi", "impi"}

// profiles are conform's transport profiles (conform.Transports).
var profiles = []string{"shm", "net"}

var (
	pipPin  = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)==([0-9][0-9A-Za-z.+-]*)$`)
	nameRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*$`)
	dateRE  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
)

// ReadList reads and checks the list at path.
func ReadList(path string) (List, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return List{}, err
	}
	var l List
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return List{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := l.check(); err != nil {
		return List{}, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

// check reports the first thing wrong with the list.
func (l List) check() error {
	if !dateRE.MatchString(l.Checked) {
		return fmt.Errorf("checked %q: want the date YYYY-MM-DD", l.Checked)
	}
	if len(l.Builds) == 0 {
		return fmt.Errorf("no builds")
	}
	seen := map[string]bool{}
	for _, b := range l.Builds {
		if seen[b.Name] {
			return fmt.Errorf("build %s listed twice", b.Name)
		}
		seen[b.Name] = true
		if err := b.check(); err != nil {
			return fmt.Errorf("build %q: %w", b.Name, err)
		}
	}
	return nil
}

func (b Build) check() error {
	if !nameRE.MatchString(b.Name) {
		return fmt.Errorf("name: want lower-case letters, digits, dots and dashes (a directory's name)")
	}
	if !slices.Contains(families, b.Family) {
		return fmt.Errorf("family %q: want one of %s", b.Family, strings.Join(families, ", "))
	}
	if b.Version == "" {
		return fmt.Errorf("no version")
	}
	if (b.Debian == nil) == (len(b.Pip) == 0) {
		return fmt.Errorf("give debian or pip, one of the two")
	}
	if b.Debian != nil {
		if err := b.Debian.check(b.Version); err != nil {
			return err
		}
		if len(b.ToolEnv) > 0 {
			return fmt.Errorf("tool_env is for wheels' tools")
		}
	} else if err := b.checkPip(); err != nil {
		return err
	}
	if err := checkEnv("tool_env", b.ToolEnv); err != nil {
		return err
	}
	return b.checkTransports()
}

func (d Debian) check(version string) error {
	if len(d.Packages) == 0 || d.MPICC == "" || d.MPIExec == "" {
		return fmt.Errorf("debian: want packages, mpicc and mpiexec")
	}
	if !strings.HasPrefix(d.Version, version+"-") {
		return fmt.Errorf("debian version %q is not a Debian revision of %s", d.Version, version)
	}
	return nil
}

// checkPip requires every package pinned, and one of them at the build's version.
func (b Build) checkPip() error {
	atVersion := false
	for _, p := range b.Pip {
		m := pipPin.FindStringSubmatch(p)
		if m == nil {
			return fmt.Errorf("pip %q: want name==version, pinned", p)
		}
		atVersion = atVersion || m[2] == b.Version
	}
	if !atVersion {
		return fmt.Errorf("pip: no package pinned at version %s", b.Version)
	}
	return nil
}

func (b Build) checkTransports() error {
	if len(b.Transports) == 0 || b.Transports[0].Name != "shm" {
		return fmt.Errorf("transports: want shm first (the install is checked over it)")
	}
	seen := map[string]bool{}
	for _, t := range b.Transports {
		if seen[t.Name] || !nameRE.MatchString(t.Name) {
			return fmt.Errorf("transport %q: listed twice or not a name", t.Name)
		}
		seen[t.Name] = true
		if !slices.Contains(profiles, t.Profile) {
			return fmt.Errorf("transport %s: profile %q: want %s", t.Name, t.Profile, strings.Join(profiles, " or "))
		}
		if err := checkEnv("transport "+t.Name+" env", t.Env); err != nil {
			return err
		}
		if t.Path == "" {
			return fmt.Errorf("transport %s: say what it exercises (path)", t.Name)
		}
		switch {
		case t.Status == "ok" && t.Error == "":
		case t.Status == "fails" && t.Error != "":
		default:
			return fmt.Errorf("transport %s: status %q: want ok, or fails with its error", t.Name, t.Status)
		}
	}
	return nil
}

func checkEnv(what string, env []string) error {
	for _, kv := range env {
		if !envName.MatchString(kv) {
			return fmt.Errorf("%s %q: want NAME=VALUE", what, kv)
		}
	}
	return nil
}

// Named is the build of that name.
func (l List) Named(name string) (Build, bool) {
	i := slices.IndexFunc(l.Builds, func(b Build) bool { return b.Name == name })
	if i < 0 {
		return Build{}, false
	}
	return l.Builds[i], true
}

// Transport is the build's transport of that name.
func (b Build) Transport(name string) (Transport, bool) {
	i := slices.IndexFunc(b.Transports, func(t Transport) bool { return t.Name == name })
	if i < 0 {
		return Transport{}, false
	}
	return b.Transports[i], true
}

// Dir is the build's directory in the cache.
func (b Build) Dir(cache string) string { return filepath.Join(cache, b.Name) }

// venv is the build's virtual environment (pip builds).
func (b Build) venv(cache string) string { return filepath.Join(b.Dir(cache), "venv") }

// wrapped reports whether the build's prefix holds generated tools rather than
// the install's own.
func (b Build) wrapped() bool { return b.Debian != nil || len(b.ToolEnv) > 0 }

// Prefix is what conform --mpi takes for the build: the virtual environment when
// the wheel's own bin/mpicc and bin/mpiexec work as they are, else the build's
// directory, with generated ones.
func (b Build) Prefix(cache string) string {
	if b.wrapped() {
		return b.Dir(cache)
	}
	return b.venv(cache)
}

// ConformArgs are rmacheck conform's options for the build over the transport.
func (b Build) ConformArgs(cache string, t Transport) []string {
	prefix := b.Prefix(cache)
	args := []string{"--mpi", prefix, "--transport", t.Profile}
	for _, kv := range t.Env {
		args = append(args, "--env", kv)
	}
	if t.Launcher != "" {
		args = append(args, "--launcher", strings.ReplaceAll(t.Launcher, "{prefix}", prefix))
	}
	return args
}
