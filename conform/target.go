package conform

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/reference"
)

// Target is where conform runs a test: the reference runtime or one MPI library. A
// target only executes: Check searches the model and compares, once, for every
// target. Each is a value (Reference, MPI), so a new target, such as a library
// installed at a prefix of the user's, is one more value and needs no change here or
// in cmd.
type Target interface {
	// Info is what the target is, as every record and report row of its runs says.
	Info() TargetInfo
	// DefaultRuns is how many times a run executes p when Options.Runs is 0.
	DefaultRuns(p *model.Program) int
	// Execute runs the test's program x.Runs times and returns what happened. An
	// error that means the target could not run it is a *RunError.
	Execute(x Execution) (*Histogram, error)
}

// Execution is what a target is asked to run.
type Execution struct {
	Test *litmus.Test
	// Program is the test compiled under the semantics without a hw model's store
	// buffers (spec.SC): the reference runtime takes its MPI steps, the machine's
	// plain accesses being its own; a library's program reads its outcome items.
	Program *model.Program
	Runs    int
	Seed    int64
	// Progress, when set, is told how many runs are done.
	Progress func(done int)
	// Context stops the run when it ends (never nil).
	Context context.Context
}

// Histogram is what a target's runs of a test showed: how often each outcome, or why
// there is no histogram (a spin limit, a program that declined the test).
type Histogram struct {
	Runs    int
	Elapsed time.Duration
	Bins    []reference.Bin
	// SpinLimit: a spin loop of the test did not exit within its bound (the
	// target's SPIN-LIMIT line): the run stopped there, with no histogram.
	SpinLimit string
	// Skipped: the program declined the test (a window model or placement it
	// cannot give), with why.
	Skipped string
	// Models: MPI_WIN_MODEL of each window as a real library reports it ("W unified").
	Models []string
	// Placement (real-MPI targets): the launcher and the node of each rank.
	Placement *Placement
	// Starvation: the share of the run the ranks spent ready to run but off a CPU
	// (reference.Result.Starvation; 0 when unknown), and whether that starved it.
	Starvation float64
	Starved    bool
}

// Kind is what a target is: the reference runtime or an MPI library.
type Kind uint8

const (
	KindReference Kind = iota // the model's MPI steps on real shared memory (Reference)
	KindMPI                   // an MPI library, running the test's C program (MPI)
	numKinds
)

var kindWords = [numKinds]string{KindReference: "reference", KindMPI: "mpi"}

func (k Kind) String() string {
	if k < numKinds {
		return kindWords[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// MarshalText prints the kind in records.
func (k Kind) MarshalText() ([]byte, error) {
	if k >= numKinds {
		return nil, fmt.Errorf("conform: no kind %d", uint8(k))
	}
	return []byte(kindWords[k]), nil
}

// UnmarshalText reads the kind of a record.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, w := range kindWords {
		if w == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown target kind %q (expected %s)", b, strings.Join(kindWords[:], " or "))
}

// Family is an MPI library family whose launcher rmacheck knows the options of
// (families: MPICH, Open MPI, Intel MPI). Its word is what --target names the Debian package by.
type Family uint8

const (
	NoFamily Family = iota // the reference runtime's
	MPICH
	OpenMPI
	IntelMPI // MPICH-derived, but its own launcher (hydra under another name) and fabrics
	numFamilies
)

// familyWords are the families' words (--target, records) and names (reports).
var familyWords = [numFamilies]struct{ word, name string }{
	MPICH: {"mpich", "MPICH"}, OpenMPI: {"openmpi", "Open MPI"}, IntelMPI: {"impi", "Intel MPI"}}

// String is the family's word: mpich, openmpi ("" for none).
func (f Family) String() string {
	if f < numFamilies {
		return familyWords[f].word
	}
	return fmt.Sprintf("Family(%d)", uint8(f))
}

// Name is the family's name as its developers write it: "MPICH", "Open MPI".
func (f Family) Name() string {
	if f < numFamilies {
		return familyWords[f].name
	}
	return f.String()
}

// ParseFamily reads a family's word.
func ParseFamily(word string) (Family, error) {
	for f := MPICH; f < numFamilies; f++ {
		if familyWords[f].word == word {
			return f, nil
		}
	}
	var words []string
	for f := MPICH; f < numFamilies; f++ {
		words = append(words, familyWords[f].word)
	}
	return NoFamily, fmt.Errorf("unknown MPI library %q (expected %s)", word, strings.Join(words, " or "))
}

// MarshalText prints the family in records.
func (f Family) MarshalText() ([]byte, error) {
	if f >= numFamilies {
		return nil, fmt.Errorf("conform: no family %d", uint8(f))
	}
	return []byte(f.String()), nil
}

// UnmarshalText reads the family of a record ("" is none).
func (f *Family) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*f = NoFamily
		return nil
	}
	fam, err := ParseFamily(string(b))
	if err == nil {
		*f = fam
	}
	return err
}

// ReferenceName is the reference runtime's target name: what --target names it by.
var ReferenceName = KindReference.String()

// ParseTargetName reads a target name (--target, and the records of format 1):
// reference, or an MPI family's word.
func ParseTargetName(word string) (Kind, Family, error) {
	if word == ReferenceName {
		return KindReference, NoFamily, nil
	}
	f, err := ParseFamily(word)
	if err != nil {
		return 0, 0, fmt.Errorf("unknown target %q (expected %s, mpich or openmpi)", word, ReferenceName)
	}
	return KindMPI, f, nil
}

// TargetInfo says what a target is, in every record and report row of its runs: two
// installs of one family, or one install over two transports, are two targets.
type TargetInfo struct {
	Kind   Kind   `json:"kind"`
	Family Family `json:"family,omitempty"`
	// Version is the library's name and version as it says them
	// (MPI_Get_library_version's first line, shortened by LibraryLine: "MPICH
	// 4.0.2"); "" for the reference runtime.
	Version string `json:"version,omitempty"`
	// Prefix is where the library is installed (--mpi PREFIX, or the folder above
	// the launcher's); "" for the Debian package a family's word names.
	Prefix    string `json:"prefix,omitempty"`
	Transport string `json:"transport,omitempty"` // the transport profile (shm, net)
	// Launcher is the launcher's command line before "-n N" (mpiexec.mpich, or
	// --launcher's command).
	Launcher string `json:"launcher,omitempty"`
}

// Name is the target's name: reference, or the family's word (mpich).
func (ti TargetInfo) Name() string {
	if ti.Kind == KindReference {
		return ReferenceName
	}
	return ti.Family.String()
}

// String is how a run's text output names the target: "mpich: MPICH 4.0.2 over shm".
func (ti TargetInfo) String() string {
	s := ti.Name()
	if ti.Version != "" {
		s += ": " + ti.Version
	}
	if ti.Transport != "" {
		s += " over " + ti.Transport
	}
	return s
}
