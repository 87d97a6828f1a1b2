package model_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

// TestOrdered: the candidate pairs Program.Ordered says can never be concurrent
// (one process, a first access live only until it executes, a second that waits
// for it; an operation in a PSCW epoch and its target's access after the matching
// wait), as "RULE P.row P.row" by their sites.
func TestOrdered(t *testing.T) {
	const decl = "{\n  win W allocate_shared size=2;\n  x = W@0[0]; y = W@1[0]; z = W@1[1];\n}\n"
	for _, c := range []struct {
		name, sem, table string
		want             []string
	}{
		{"A: a remote load, then a remote store to its cell", "A", ` P0           | P1           ;
 lock_all W   | lock_all W   ;
 r0 = load y  | store z 1    ;
 store y 1    | unlock_all W ;
 unlock_all W |              ;
`, []string{"C-CONFLICT 0.3 0.2"}},
		{"A: a remote store, then a remote load of its cell: pending while the load runs", "A", ` P0           | P1           ;
 lock_all W   | lock_all W   ;
 store y 1    | store z 1    ;
 r0 = load y  | unlock_all W ;
 unlock_all W |              ;
`, nil},
		{"A: two remote stores: the first stays pending", "A", ` P0           | P1           ;
 lock_all W   | lock_all W   ;
 store y 1    | store z 1    ;
 store y 2    | unlock_all W ;
 unlock_all W |              ;
`, nil},
		{"A: two remote loads and a store of each", "A", ` P0           | P1           ;
 lock_all W   | lock_all W   ;
 r0 = load y  | r0 = load x  ;
 r1 = load y  | store x 2    ;
 store y 1    | unlock_all W ;
 unlock_all W |              ;
`, []string{"C-CONFLICT 0.4 0.2", "C-CONFLICT 0.4 0.3", "C-CONFLICT 1.3 1.2"}},
		{"mpi-4.1: plain accesses race across processes only", "mpi-4.1", ` P0           | P1           ;
 lock_all W   | lock_all W   ;
 r0 = load y  | store y 2    ;
 store y 1    | unlock_all W ;
 unlock_all W |              ;
`, nil},
		{"mpi-4.1: a local load, then a put to its cell: the put waits for the load", "mpi-4.1", ` P0              | P1           ;
 lock_all W      | lock_all W   ;
 r0 = load x     | unlock_all W ;
 put W@0[0] 1    |              ;
 unlock_all W    |              ;
`, []string{"U2 0.2 0.3"}},
		{"mpi-4.1: a put in a PSCW epoch, then its target's load after the wait: the wait completes it", "mpi-4.1", ` P0              | P1           ;
 start W {1}     | post W {0}   ;
 put W@1[0] 1    | wait W       ;
 complete W      | r0 = load y  ;
`, []string{"U2 1.3 0.2"}},
		{"mpi-4.1: its target's load inside the exposure epoch", "mpi-4.1", ` P0              | P1           ;
 start W {1}     | post W {0}   ;
 put W@1[0] 1    | r0 = load y  ;
 complete W      | wait W       ;
`, nil},
		{"mpi-4.1: a put of the second epoch, the load after the first wait", "mpi-4.1", ` P0              | P1           ;
 start W {1}     | post W {0}   ;
 complete W      | wait W       ;
 start W {1}     | post W {0}   ;
 put W@1[0] 1    | r0 = load y  ;
 complete W      | wait W       ;
`, nil},
		{"mpi-4.1: a put of the first epoch, the load in the second exposure epoch", "mpi-4.1", ` P0              | P1           ;
 start W {1}     | post W {0}   ;
 put W@1[0] 1    | wait W       ;
 complete W      | post W {0}   ;
 start W {1}     | r0 = load y  ;
 complete W      | wait W       ;
`, []string{"U2 1.4 0.2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := compileSource(t, "ordered.lit", "MPI ordered\n"+decl+c.table+"exists (x=0)\n", c.sem, spec.Relaxed)
			var got, all []string
			ordered := p.Ordered()
			for ci := range p.Candidates {
				d := p.CandidateDiagnostic(ci)
				s := d.Sites()
				k := fmt.Sprintf("%s %d.%d %d.%d", d.Rule, s[0].Proc, s[0].Row, s[1].Proc, s[1].Row)
				all = append(all, k)
				if ordered != nil && ordered[ci] {
					got = append(got, k)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("ordered pairs %q, want %q (candidates %q)", got, c.want, all)
			}
		})
	}
}
