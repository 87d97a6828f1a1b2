package explorer

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/rmacheck/rmacheck/litmus"
)

// TestQueueClaims: the queue of a Stream hands out every job once; a worker keeps
// to its test's jobs, in order, and takes the next test not yet started when they
// are taken (the first largest tests first, then the others in order); only when
// every test has started does it help, with the next untaken job of the test with
// the most left (the first such test on a tie).
func TestQueueClaims(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sizes := rapid.SliceOfN(rapid.IntRange(1, 6), 1, 8).Draw(t, "jobs per test")
		var jobs []Job
		var testOf []int
		var code [][]int // per test, the instructions of each process
		for k, n := range sizes {
			lt := &litmus.Test{Name: string(rune('a' + k))}
			code = append(code, rapid.SliceOfN(rapid.IntRange(0, 4), 0, 3).Draw(t, "instructions per process"))
			for _, m := range code[k] {
				lt.Procs = append(lt.Procs, &litmus.Proc{Code: make([]*litmus.Instr, m+1)})
				for r := range m {
					lt.Procs[len(lt.Procs)-1].Code[r] = &litmus.Instr{} // the last cell stays empty
				}
			}
			for range n {
				jobs = append(jobs, Job{Test: lt})
				testOf = append(testOf, k)
			}
		}
		workers := rapid.IntRange(1, 4).Draw(t, "workers")
		first := rapid.IntRange(0, 3).Draw(t, "first")
		// the model's start order: the first largest by interleavings (exact
		// counts), the earlier on a tie, then the others in order
		var order []int
		for len(order) < min(first, len(sizes)) {
			best := -1
			for k := range sizes {
				if !slices.Contains(order, k) && (best < 0 || multinomial(code[k]).Cmp(multinomial(code[best])) > 0) {
					best = k
				}
			}
			order = append(order, best)
		}
		for k := range sizes {
			if !slices.Contains(order, k) {
				order = append(order, k)
			}
		}
		q := newQueue(jobs, first)
		own := make([]int, workers)
		for w := range own {
			own[w] = -1
		}
		// the model: untaken[k] is test k's untaken jobs, in order
		untaken := make([][]int, len(sizes))
		for i, k := range testOf {
			untaken[k] = append(untaken[k], i)
		}
		started := 0
		claimed := make([]bool, len(jobs))
		for n := 0; ; n++ {
			w := rapid.IntRange(0, workers-1).Draw(t, "worker")
			var want int
			wantOK := true
			switch {
			case own[w] >= 0 && len(untaken[own[w]]) > 0:
				want, untaken[own[w]] = untaken[own[w]][0], untaken[own[w]][1:]
			case started < len(sizes):
				k := order[started]
				want, untaken[k] = untaken[k][0], untaken[k][1:]
				started++
			default:
				most := -1
				for k := range untaken {
					if len(untaken[k]) > 0 && (most < 0 || len(untaken[k]) > len(untaken[most])) {
						most = k
					}
				}
				if most < 0 {
					wantOK = false
					break
				}
				want, untaken[most] = untaken[most][0], untaken[most][1:]
			}
			before := own[w]
			got, ok := q.claim(&own[w])
			if ok != wantOK || ok && got != want {
				t.Fatalf("claim %d by worker %d (test %d): got %d %v, want %d %v", n, w, before, got, ok, want, wantOK)
			}
			if !ok {
				break
			}
			if claimed[got] {
				t.Fatalf("job %d handed out twice", got)
			}
			claimed[got] = true
		}
		for i, c := range claimed {
			if !c {
				t.Fatalf("job %d never handed out", i)
			}
		}
	})
}

// multinomial is the number of interleavings of processes of n[i] instructions:
// (n[0] + n[1] + ...)! / (n[0]! n[1]! ...).
func multinomial(n []int) *big.Int {
	total := 0
	den := big.NewInt(1)
	for _, k := range n {
		total += k
		den.Mul(den, new(big.Int).MulRange(1, int64(k)))
	}
	return new(big.Int).Quo(new(big.Int).MulRange(1, int64(total)), den)
}

// TestHelpers: a search splits a level of parallelLevel states or more over as many
// goroutines as Options.Workers allows and its run has CPUs free, and gives them
// back; outside a run (no cpus), Workers alone decides.
func TestHelpers(t *testing.T) {
	for _, c := range []struct {
		name          string
		workers       int
		free          int64 // -1: not in a run
		level         int
		want          int
		freeAfterTake int64
	}{
		{"one worker", 1, 3, parallelLevel, 0, 3},
		{"small level", 4, 3, parallelLevel - 1, 0, 3},
		{"none free", 2, 0, parallelLevel, 0, 0},
		{"one free of one asked", 2, 1, parallelLevel, 1, 0},
		{"two free of one asked", 2, 2, parallelLevel, 1, 1},
		{"one free of three asked", 4, 1, parallelLevel * 10, 1, 0},
		{"not in a run", 3, -1, parallelLevel, 2, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := &search{opt: Options{Workers: c.workers}}
			if c.free >= 0 {
				e.opt.cpus = &cpus{}
				e.opt.cpus.give(int(c.free))
			}
			got := e.helpers(c.level)
			if got != c.want {
				t.Fatalf("helpers(%d) = %d, want %d", c.level, got, c.want)
			}
			if e.opt.cpus == nil {
				e.release(got)
				return
			}
			if f := e.opt.cpus.free.Load(); f != c.freeAfterTake {
				t.Errorf("free after taking = %d, want %d", f, c.freeAfterTake)
			}
			e.release(got)
			if f := e.opt.cpus.free.Load(); f != c.free {
				t.Errorf("free after release = %d, want %d", f, c.free)
			}
		})
	}
}

// TestInterleavings: the count is exact while its computation fits 64 bits, and
// ranks the larger above across that bound, where the log-gamma sum takes over.
func TestInterleavings(t *testing.T) {
	prog := func(n ...int) *litmus.Test {
		lt := &litmus.Test{}
		for _, k := range n {
			p := &litmus.Proc{Code: make([]*litmus.Instr, k+1)} // an empty cell too
			for r := range k {
				p.Code[r] = &litmus.Instr{}
			}
			lt.Procs = append(lt.Procs, p)
		}
		return lt
	}
	for _, c := range []struct {
		n    []int
		want uint64
	}{
		{nil, 1},
		{[]int{5}, 1},
		{[]int{2, 2}, 6},
		{[]int{1, 5}, 6},
		{[]int{5, 6, 6, 6}, 577_185_873_264},     // WRC+plain0815's rows
		{[]int{30, 30}, 118_264_581_564_861_424}, // C(60, 30)
	} {
		if got := interleavings(prog(c.n...)); got.big || got.n != c.want {
			t.Errorf("%v: got %+v, want %d", c.n, got, c.want)
		}
	}
	// C(66, 33) fits 64 bits but its computation does not; C(68, 34) passes them.
	sizes := []interleaving{interleavings(prog(30, 30)), interleavings(prog(33, 33)), interleavings(prog(34, 34)), interleavings(prog(35, 35))}
	for i := range sizes {
		for j := range sizes {
			if sizes[i].less(sizes[j]) != (i < j) {
				t.Errorf("C(%d, %d) < C(%d, %d): got %v", 60+2*i, 30+i, 60+2*j, 30+j, sizes[i].less(sizes[j]))
			}
		}
	}
	if want := 44.795; !sizes[2].big || math.Abs(sizes[2].log-want) > 0.001 { // ln C(68, 34)
		t.Errorf("C(68, 34): got %+v, want ln %.3f", sizes[2], want)
	}
}
