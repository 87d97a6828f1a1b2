package explorer_test

import (
	"fmt"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
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

// TestCacheCorpus: over every corpus and acceptance test, the four presets' sc and
// tso jobs of one shared run (one tso program often serves all four presets:
// model.Program.ExecutionsUnder) give the verdicts of each job run alone, on a
// program that behaves as the job's own compile, with outcome witnesses that
// replay on it.
func TestCacheCorpus(t *testing.T) {
	shared, searched := 0, 0
	for _, f := range corpus.All(t) {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		jobs := explorer.JobsFor(lt, spec.AllPresets(), spec.SC, spec.TSO)
		c := &explorer.Cache{}
		results := explorer.RunAll(jobs, 1, explorer.Options{Cache: c, MaxStates: 2_000_000})
		shared, searched = shared+c.Shared, searched+c.Searches
		for i, j := range jobs {
			alone := j.Run(explorer.Options{MaxStates: 2_000_000})
			got := results[i]
			if (got.Err == nil) != (alone.Err == nil) {
				t.Fatalf("%s %s %s: shared error %v, alone %v", f, j.Sem.Name, j.HW, got.Err, alone.Err)
			}
			if alone.Err != nil {
				continue
			}
			if d := sameVerdict(alone.Result, got.Result); d != "" {
				t.Errorf("%s %s %s: shared run differs (-alone +shared):\n%s", f, j.Sem.Name, j.HW, d)
			}
			p := got.Result.Program
			if p.Sem != j.Sem || p.HW != j.HW || !p.SameBehaviour(alone.Result.Program) {
				t.Fatalf("%s %s %s: the shared result's program is not the job's", f, j.Sem.Name, j.HW)
			}
			for _, o := range got.Result.Outcomes {
				tr := model.Witness{Program: p, Steps: o.Witness.Arranged().Steps}.Replay()
				if tr.Err != nil || fmt.Sprint(p.OutcomeValues(tr.Final)) != fmt.Sprint(o.Values) {
					t.Fatalf("%s %s %s: the witness of %v does not replay to it (%v)", f, j.Sem.Name, j.HW, o.Values, tr.Err)
				}
			}
		}
	}
	if shared == 0 {
		t.Fatal("no search was shared: the test tests nothing")
	}
	t.Logf("%d searches, %d shared", searched, shared)
}
