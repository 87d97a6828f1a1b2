package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestABIAlignments: each ABI's alignments are its psABI's (model/align.go cites the
// documents), and the MPI-4.0 guarantee is the largest of them.
func TestABIAlignments(t *testing.T) {
	for _, c := range []struct {
		abi                                 string
		int64, double, longDouble, maxAlign int
	}{
		{"x86-64", 8, 8, 16, 16},
		{"aarch64", 8, 8, 16, 16},
		{"ppc64le", 8, 8, 16, 16},
		{"i386", 4, 4, 4, 4},
	} {
		a, err := model.ParseABI(c.abi)
		if err != nil {
			t.Fatal(err)
		}
		got := []int{a.Align(litmus.Int64), a.Align(litmus.Double), a.Align(litmus.LongDouble), a.MaxAlign()}
		want := []int{c.int64, c.double, c.longDouble, c.maxAlign}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: alignments (int64, double, long double, max) %v, want %v", c.abi, got, want)
				break
			}
		}
		if a.Align(litmus.V64) != 64 || a.Align(litmus.Int8) != 1 || a.Doc == "" {
			t.Errorf("%s: vector and byte alignments, or the psABI citation, are wrong", c.abi)
		}
	}
	if _, err := model.ParseABI("sparc"); err == nil {
		t.Error("an unknown ABI is accepted")
	}
}

// TestABIChangesVerdict: an int64 4 bytes into a contiguous allocate_shared window is
// misaligned on x86-64 (int64 aligns to 8) and aligned on i386 (to 4).
func TestABIChangesVerdict(t *testing.T) {
	lt, err := litmus.Parse("t.lit", []byte(`MPI int64-after-int32
{ win W allocate_shared bytes=[4,8]; z = W@1[0] : int64; }
 P0 | P1 ;
    | r0 = load z ;
exists (1:r0=0)
`))
	if err != nil {
		t.Fatal(err)
	}
	sem, _ := spec.Preset("mpi-4.1")
	for _, c := range []struct {
		abi  model.ABI
		want bool
	}{{model.X8664, true}, {model.I386, false}} {
		p, err := model.Compile(lt, sem, spec.Relaxed, model.WithABI(c.abi))
		if err != nil {
			t.Fatal(err)
		}
		r, err := explorer.Explore(p, explorer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.HasFlag(spec.EAlign); got != c.want {
			t.Errorf("%s: E-ALIGN %v, want %v", c.abi.Name, got, c.want)
		}
	}
}
