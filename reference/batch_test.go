package reference

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

const mpFence = `{ win W allocate size=1; x = W@1[0]; }
 P0      | P1          ;
 fence W | fence W     ;
 put x 1 |             ;
 fence W | fence W     ;
         | r0 = load x ;
exists (1:r0=0)
`

// TestBatchBookkeeping: whatever the batch and the runs (fewer than a batch, not a
// multiple of it), every run is counted once, the last batch is the rest, and
// Progress is called once at each multiple of 65536 runs. MP+put+fence has one
// outcome, so every run must show it: a copy counted twice or never reset would
// show up as a count off by a batch, or as 1:r0=0.
func TestBatchBookkeeping(t *testing.T) {
	sbProg, mpProg := compile(t, sb, "mpi-4.1"), compile(t, mpFence, "mpi-4.1")
	for _, c := range []struct {
		runs, batch, wantBatch, progress int
	}{
		{1, 0, 1, 0},
		{5, 1, 1, 0},
		{255, 256, 255, 0},
		{257, 256, 256, 0},
		{1000, 7, 7, 0},
		{65536 + 300, 1000, 1000, 1},
		{2*65536 + 1, 0, DefaultBatch, 2},
	} {
		t.Run(fmt.Sprintf("runs %d batch %d", c.runs, c.batch), func(t *testing.T) {
			calls := 0
			opt := Options{Runs: c.runs, Seed: 1, Batch: c.batch, Progress: func(int) { calls++ }}
			r, err := Run(sbProg, opt)
			if err != nil {
				t.Fatal(err)
			}
			total := 0
			for _, b := range r.Bins {
				total += b.Count
			}
			if r.Runs != c.runs || total != c.runs || r.Batch != c.wantBatch || calls != c.progress {
				t.Errorf("SB: %d runs counted %d times, batch %d, %d progress calls; want %d, %d, %d", r.Runs, total, r.Batch, calls, c.runs, c.wantBatch, c.progress)
			}
			if c.runs > 20_000 {
				return // MP+put+fence calls MPI: a few microseconds a run
			}
			opt.Progress = nil
			r, err = Run(mpProg, opt)
			if err != nil {
				t.Fatal(err)
			}
			if n := count(r, 1); n != c.runs || len(r.Bins) != 1 {
				t.Errorf("MP+put+fence: %d of %d runs show 1:r0=1: %+v", n, c.runs, r.Bins)
			}
		})
	}
}

// TestBatchFitsTheCache: a test with many cells gets a smaller batch, so that its
// copies fit batchBytes; a small test gets the batch asked for.
func TestBatchFitsTheCache(t *testing.T) {
	if k := batchSize(compile(t, sb, "mpi-4.1"), Options{Runs: 1 << 20, Batch: 1024}); k != 1024 {
		t.Errorf("SB, batch 1024: %d copies", k)
	}
	var decl, rows strings.Builder
	for i := 0; i < 64; i++ {
		fmt.Fprintf(&decl, " c%d = W@0[%d];", i, i)
		fmt.Fprintf(&rows, " store c%d 1 | ;\n", i)
	}
	p := compile(t, "{ win W allocate_shared size=64;"+decl.String()+" }\n P0 | P1 ;\n"+rows.String()+"exists (c0=0)\n", "mpi-4.1")
	k := batchSize(p, Options{Runs: 1 << 20, Batch: 1024})
	if bytes := k * p.MemWords() * lineWords * 8; k >= 1024 || bytes > batchBytes || k < 1 {
		t.Errorf("64 cells, batch 1024: %d copies (%d bytes of memory)", k, bytes)
	}
}

// TestBatchesAllocateNothing: a run allocates the same whatever its number of runs,
// SB and a test that calls MPI alike: nothing is allocated per iteration or per batch
// (the drain of pending operations allocated a random order of the slots at every
// iteration; an allocation under a spin lock hung poll tests under load).
func TestBatchesAllocateNothing(t *testing.T) {
	for _, c := range []struct{ name, src string }{{"SB", sb}, {"MP+put+fence", mpFence}} {
		p := compile(t, c.src, "mpi-4.1")
		mallocs := func(runs int) uint64 {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			if _, err := Run(p, Options{Runs: runs, Seed: 1, Batch: 16}); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			return after.Mallocs - before.Mallocs
		}
		mallocs(16) // the histogram's outcomes, seen once
		few, many := mallocs(64), mallocs(64+16*1000)
		// 1000 batches more: an allocation per batch or per run would be 1000 or more
		if many > few+200 {
			t.Errorf("%s: %d allocations for 64 runs, %d for 16,064", c.name, few, many)
		}
	}
}

// TestBatchFairness: within a batch each rank still begins its iterations first
// about as often as the other (both orders of the ranks' first accesses in the mix),
// as the common start of every iteration gave before batches. Counted at the start
// of each iteration (Options.countFirst); logged with the iterations begun behind
// their time. The ranks must run side by side for that: on a loaded machine
// (CPU starvation) a rank off its CPU begins its iterations late whatever the
// start, and the test says so and skips rather than fail.
func TestBatchFairness(t *testing.T) {
	needsTSO(t)
	p := compile(t, sb, "mpi-4.1")
	starved := 0.0
	for round := 1; round <= 5; round++ {
		r, err := Run(p, Options{Runs: 200_000, Seed: int64(round), countFirst: true})
		if err != nil {
			t.Fatal(err)
		}
		share := float64(r.first[1]) / float64(r.Runs)
		t.Logf("round %d, batch %d: %.0f runs/s, starvation %.2f, P1 first in %.1f%% (%v), %d begun behind: %v",
			round, r.Batch, r.Rate(), r.Starvation(), 100*share, r.first, r.behind, r.Bins)
		if r.first[0]+r.first[1] != r.Runs {
			t.Fatalf("%d + %d iterations begun first, of %d", r.first[0], r.first[1], r.Runs)
		}
		if share >= 0.2 && share <= 0.8 {
			return
		}
		starved = max(starved, r.Starvation())
	}
	if starved > 0.05 {
		t.Skipf("no round had each rank first in 20%% of the runs, but the ranks waited for a CPU up to %.0f%% of the time", 100*starved)
	}
	t.Error("no round had each rank first in 20% of the runs, with the ranks on their CPUs")
}

// TestHistogramCountsEachOutcome: the first bins are found by comparison, the later
// ones through the index; both count into the same bin as the first sight did.
func TestHistogramCountsEachOutcome(t *testing.T) {
	h := &histogram{index: map[string]int{}}
	for round := 1; round <= 3; round++ {
		for v := int64(0); v < 2*scanBins; v++ {
			h.add([]int64{v, -v})
		}
	}
	if len(h.values) != 2*scanBins {
		t.Fatalf("%d bins for %d outcomes", len(h.values), 2*scanBins)
	}
	for i, vals := range h.values {
		if vals[0] != int64(i) || vals[1] != -int64(i) || h.counts[i] != 3 {
			t.Errorf("bin %d: %v seen %d times; want [%d %d] 3 times", i, vals, h.counts[i], i, -i)
		}
	}
}

// TestSlipNeverMovesTheStartBack: a rank behind its window moves the batch's start
// forward; a rank that slips to an earlier time (it was less late, and saw the start
// before the other moved it) leaves the later start, so no rank's iteration is
// scheduled before a time another rank already waits for.
func TestSlipNeverMovesTheStartBack(t *testing.T) {
	m := newMachine(compile(t, sb, "mpi-4.1"), Options{Seed: 1})
	m.start.Store(1000)
	for _, c := range []struct{ slip, want int64 }{{500, 1000}, {1000, 1000}, {1500, 1500}, {1200, 1500}, {90000, 90000}} {
		m.slip(c.slip)
		if got := m.start.Load(); got != c.want {
			t.Errorf("slip to %d: start %d; want %d", c.slip, got, c.want)
		}
	}
}
