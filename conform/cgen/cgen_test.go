package cgen

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// goldenFiles are translated and compared with testdata/NAME.golden ("acceptance:"
// names a file of ../shared/acceptance, whose goldens are checked when it is there).
var goldenFiles = []string{
	"acceptance:01-SB.lit",
	"acceptance:11-MP+put+fence.lit",
	"acceptance:26-lock-counter.lit",
	"../../litmus/ticket435/MP+fence+over-alias.lit",
	"../../litmus/rma/dynamic-put-get.lit",
	"../../litmus/rma/fence-subgroup-ranks.lit",
	"../../litmus/rma/racc-rgacc-order.lit",
	"../../litmus/layout/create-int8-int16-double.lit",
	"../../litmus/examples/Ex12.4-pscw.lit",
	"../../litmus/sharedquery/sq-create-over-shared.lit",
	"acceptance:38-MP+acc-flag+fop-poll.lit",
	"../../litmus/poll/MP+sync+await+sync.lit",
	"../../litmus/dynamic/linked-list-lock-all.lit",
	"../../litmus/dynamic/wintest-pscw-test.lit",
}

func parse(t *testing.T, path string) *litmus.Test {
	t.Helper()
	lt, err := litmus.ParseFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return lt
}

func TestGolden(t *testing.T) {
	for _, path := range goldenFiles {
		if name, ok := strings.CutPrefix(path, "acceptance:"); ok {
			dir := corpus.AcceptanceDir()
			if dir == "" {
				t.Logf("../shared/acceptance is absent: %s not checked", name)
				continue
			}
			path = filepath.Join(dir, name)
		}
		lt := parse(t, path)
		src, err := Generate(lt, Options{})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		golden := filepath.Join("testdata", strings.TrimSuffix(filepath.Base(path), ".lit")+".golden")
		if *update {
			if err := os.WriteFile(golden, src, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if !bytes.Equal(src, want) {
			t.Errorf("%s: the C differs from %s (go test ./conform/cgen -update rewrites it)", path, golden)
		}
	}
}

// refused lists the corpus tests cgen does not translate, with the reason.
var refused = map[string]string{
	"free-in-lock_all.lit": "the outcome reads a cell of an allocate window that the test frees",
}

func corpusFiles(t *testing.T) []string {
	files := corpus.All(t)
	if len(files) < 100 {
		t.Fatalf("only %d corpus files found", len(files))
	}
	return files
}

// TestCorpusCompiles translates every corpus test and compiles it with mpicc.mpich
// -Wall -Werror (and mpicc.openmpi when there), in one compiler run per library.
func TestCorpusCompiles(t *testing.T) {
	dir := t.TempDir()
	var cfiles []string
	for _, path := range corpusFiles(t) {
		lt, err := litmus.ParseFile(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		src, err := Generate(lt, Options{})
		base := filepath.Base(path)
		if reason, ok := refused[base]; ok {
			if err == nil {
				t.Errorf("%s: cgen translates it now (%s): take it off the refused list", path, reason)
			} else {
				t.Logf("refused as expected: %v", err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		c := filepath.Join(dir, filepath.Base(filepath.Dir(path))+"-"+strings.TrimSuffix(base, ".lit")+".c")
		if err := os.WriteFile(c, src, 0o644); err != nil {
			t.Fatal(err)
		}
		cfiles = append(cfiles, c)
	}
	// mpicc.mpich builds objects (-O2, as the conform targets do); mpicc.openmpi checks
	// the same files against its own mpi.h (-fsyntax-only). The two run at once.
	var wg sync.WaitGroup
	var mu sync.Mutex
	compiled := false
	for _, cc := range []string{"mpicc.mpich", "mpicc.openmpi"} {
		if _, err := exec.LookPath(cc); err != nil {
			t.Logf("%s not installed (apt-get install mpich libmpich-dev / openmpi-bin libopenmpi-dev): not compiled with it", cc)
			continue
		}
		compiled = true
		mode := "-c"
		if cc == "mpicc.openmpi" {
			mode = "-fsyntax-only"
		}
		wg.Add(1)
		go func(cc, mode string) {
			defer wg.Done()
			args := append([]string{"-O2", "-Wall", "-Werror", mode}, cfiles...)
			cmd := exec.Command(cc, args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				mu.Lock()
				t.Errorf("%s: %v\n%s", cc, err, out)
				mu.Unlock()
			}
		}(cc, mode)
	}
	wg.Wait()
	if !compiled {
		t.Skip("no mpicc installed: the C of the corpus was generated but not compiled")
	}
	t.Logf("%d programs compiled", len(cfiles))
}

func TestUnsupported(t *testing.T) {
	src := `MPI bad
{
  win W allocate size=1 type=double;
  x = W@1[0];
}
 P0                 | P1 ;
 lock W 1 excl      |    ;
 r0 = cas x 0 1     |    ;
 unlock W 1         |    ;
exists (0:r0=0)
`
	lt, err := litmus.Parse("bad.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Generate(lt, Options{})
	// FILE:LINE:COL first, as every error about a file (it started with the test's name).
	if want := "bad.lit:8:2: cgen: r0 = cas x 0 1: MPI_Compare_and_swap takes integer types only"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestPreludeIsC: the prelude is a C file of its own (c/prelude.c) that a compiler or
// linter reads alone, and cgen writes exactly the part after its marker.
func TestPreludeIsC(t *testing.T) {
	if !strings.HasPrefix(prelude, "\n#include <mpi.h>\n") || !strings.HasSuffix(prelude, "rmc_skip = 1;\n}\n") {
		t.Errorf("prelude does not start with the includes or end with rmc_win_model: %.60q ... %q", prelude, prelude[max(0, len(prelude)-30):])
	}
	for _, cc := range []string{"mpicc.mpich", "mpicc.openmpi"} {
		if _, err := exec.LookPath(cc); err != nil {
			t.Logf("%s not installed: c/prelude.c not compiled with it", cc)
			continue
		}
		if out, err := exec.Command(cc, "-fsyntax-only", "-Wall", "-Wextra", "-Wno-unused-function", "-Werror", "c/prelude.c").CombinedOutput(); err != nil {
			t.Errorf("%s -fsyntax-only c/prelude.c: %v\n%s", cc, err, out)
		}
	}
}

// TestUnreadRegisterCompiles: a register the program sets and nothing reads (not
// an outcome item either) compiles under -Wall -Werror: gcc called it
// unused-but-set, and conform could not run a valid test (exit 3).
func TestUnreadRegisterCompiles(t *testing.T) {
	compiles(t, `MPI unread-register
{ win W allocate size=2; }
 P0              | P1      ;
 fence W         | fence W ;
 r0 = get W@1[0] | r1 = 1  ;
 fence W         | fence W ;
exists (0:r0=0)
`)
}

// TestDetachWithoutAttachCompiles: a detach in a test with no attach (erroneous, so
// the model says E-*, but conform must still run it) compiled to C naming NREGIONS,
// which only an attach declares: exit 3 blaming the library (issue 38 row 7).
func TestDetachWithoutAttachCompiles(t *testing.T) {
	compiles(t, `MPI detach-without-attach
{ win D dynamic; }
 P0           | P1      ;
 r0 = 5       | barrier ;
 detach D r0  |         ;
 barrier      |         ;
exists (0:r0=5)
`)
}

// TestCountingUpLoopCompiles: a loop counting a register up to its wrap-around
// compiles under -Werror: the C adds on unsigned values, as the model wraps (signed
// overflow is undefined, and gcc refused the loop; issue 38 row 13).
func TestCountingUpLoopCompiles(t *testing.T) {
	compiles(t, `MPI count-up
{ win W allocate size=1; }
 P0               | P1 ;
 r0 = 1           | r1 = 0 ;
 repeat           |        ;
 r0 = r0 + 1      |        ;
 until r0 == -1   |        ;
exists (0:r0=-1)
`)
}

// compiles translates a test and compiles its C with mpicc.mpich -O2 -Wall -Werror.
func compiles(t *testing.T, text string) {
	t.Helper()
	if _, err := exec.LookPath("mpicc.mpich"); err != nil {
		t.Skip("mpicc.mpich not installed")
	}
	lt, err := litmus.Parse("t.lit", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	src, err := Generate(lt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(t.TempDir(), "t.c")
	if err := os.WriteFile(c, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("mpicc.mpich", "-O2", "-Wall", "-Werror", "-c", "-o", c+".o", c)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
