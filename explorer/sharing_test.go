package explorer_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// TestCacheCompiles counts the compiles of the four presets' tso jobs of a lock_all
// test (bench/generated's 2+2W+barrier+alloc+local): its tso program reads lock_ls
// for the scope of lock_all and unlock_all alone, which tso never reads, so all four
// presets share one tso program (model.Program.ExecutionsUnder; Under alone needs a
// second for mpi-4.1, which has lock_ls); their relaxed programs, for the pair
// flags, are two: lock_ls orders the stores there. The verdicts are those of the
// jobs run alone.
func TestCacheCompiles(t *testing.T) {
	const src = `MPI 2+2W+barrier+alloc+local
{
  win W allocate size=2;
  x = W@0[0];
  y = W@0[1];
}
 P0           | P1           ;
 lock_all W   | lock_all W   ;
 store x 2    | put y 2      ;
 barrier      | barrier      ;
 store y 1    | put x 1      ;
 unlock_all W | unlock_all W ;
exists (x=2 /\ y=2)
`
	lt, err := litmus.Parse("2+2W.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	jobs := explorer.JobsFor(lt, spec.AllPresets(), spec.TSO)
	c := &explorer.Cache{}
	shared := explorer.RunAll(jobs, 1, explorer.Options{Cache: c})
	if c.Compiles != 3 {
		t.Errorf("the four presets' tso jobs compiled %d programs, want 3 (one tso, two relaxed)", c.Compiles)
	}
	for i, j := range jobs {
		alone := j.Run(explorer.Options{})
		if shared[i].Err != nil || alone.Err != nil {
			t.Fatalf("%v / %v", shared[i].Err, alone.Err)
		}
		if d := sameVerdict(alone.Result, shared[i].Result); d != "" {
			t.Errorf("%s: shared run differs (-alone +shared):\n%s", j.Sem.Name, d)
		}
	}
}
