package main

import (
	"regexp"
	"strings"
	"testing"
)

// runGoldenCases are the golden outputs of run and replay. Search times vary from run to
// run, so they are masked before the comparison.
var runGoldenCases = []struct {
	name string
	args []string
	code int
}{
	{"run_table", []string{"run", "-v", "testdata/sb.lit", "testdata/wrong-expect.lit"}, 1},
	// plain verdicts by default, one line per group of presets; wrapped at --width
	{"run_verdicts", []string{"run", "testdata/sb.lit", "testdata/wrong-expect.lit", "testdata/put-no-epoch.lit"}, 1},
	{"run_verdicts_width", []string{"run", "--width", "72", "testdata/sb.lit", "testdata/mp-flush-poll.lit"}, 0},
	{"run_block_width", []string{"run", "--width", "100", "--sem", "mpi-4.1", "testdata/sb.lit"}, 0},
	// a LIVELOCK only weak progress causes is allowed, never "erroneous": --fail-on
	// erroneous passes it and may-hang fails it, in blocks and in verdict lines
	{"run_weak_block", []string{"run", "--sem", "mpi-4.1,weak_progress=on", "--hw", "sc", "--fail-on", "erroneous", "testdata/mp-flush-poll.lit"}, 0},
	{"run_weak_verdicts", []string{"run", "--sem", "mpi-4.1;mpi-4.1,weak_progress=on", "--hw", "sc", "--fail-on", "may-hang", "testdata/mp-flush-poll.lit"}, 1},
	{"run_block", []string{"run", "--sem", "A", "testdata/sb.lit"}, 0},
	{"run_block_witness", []string{"run", "--sem", "mpi-3.0", "--hw", "tso", "--show", "witness", "testdata/sb.lit"}, 0},
	{"run_switch", []string{"run", "--sem", "mpi-3.0,fence_ls=on", "testdata/wrong-expect.lit"}, 0},
	{"run_json", []string{"run", "--json", "--sem", "A", "testdata/sb.lit"}, 0},
	{"run_bad_file", []string{"run", "testdata/bad.lit", "testdata/sb.lit"}, 2},
	{"run_bad_sem", []string{"run", "--sem", "mpi-5", "testdata/sb.lit"}, 2},
	{"run_max_states", []string{"run", "--max-states", "5", "testdata/sb.lit"}, 1},
	{"run_shard", []string{"run", "--shard", "2/2", "testdata/sb.lit", "testdata/wrong-expect.lit"}, 1},
	{"replay_outcome", []string{"replay", "testdata/sb.lit", "--sem", "mpi-3.0", "--outcome", `0:r0=0 /\ 1:r0=0`}, 0},
	{"replay_flag", []string{"replay", "testdata/sb.lit", "--sem", "A", "--flag", "E-EPOCH"}, 0},
	{"replay_missing", []string{"replay", "testdata/sb.lit", "--sem", "mpi-3.0", "--hw", "sc", "--outcome", "0:r0=0; 1:r0=0"}, 1},
	{"layout_contig", []string{"layout", "testdata/align-contig.lit"}, 1},
	{"layout_noncontig_3.0", []string{"layout", "--sem", "mpi-3.0", "testdata/align-noncontig.lit"}, 1},
	{"layout_noncontig_4.1", []string{"layout", "testdata/align-noncontig.lit"}, 0},
	{"layout_bad_abi", []string{"layout", "--abi", "vax", "testdata/sb.lit"}, 2},
	{"layout_int64_x86-64", []string{"layout", "testdata/int64-after-int32.lit"}, 1},
	{"layout_int64_i386", []string{"layout", "--abi", "i386", "testdata/int64-after-int32.lit"}, 0},
	{"run_abi_i386", []string{"run", "--abi", "i386", "testdata/int64-after-int32.lit"}, 0},
	{"run_exploit", []string{"run", "--assert", "exploit", "--sem", "mpi-3.0", "../../litmus/assertions/exploit-fence-noput-load.lit"}, 0},
	{"run_conflict_witness", []string{"run", "--sem", "mpi-4.1", "--show", "witness", "testdata/put-store-conflict.lit"}, 0},
	{"replay_unknown_name", []string{"replay", "testdata/sb.lit", "--outcome", "2:r0=0"}, 2},
	// issue 13: every distinct pair (two U2), traces that end with both accesses marked,
	// early steps and reads-from, erroneous outcomes apart, diff against an erroneous side
	{"run_two_u2_witness", []string{"run", "--sem", "mpi-4.1", "--show", "witness", "testdata/mp-flush-poll.lit"}, 0},
	{"replay_u2_flag", []string{"replay", "testdata/mp-flush-poll.lit", "--flag", "U2"}, 0},
	{"run_erroneous_apart", []string{"run", "--sem", "mpi-4.1", "testdata/guarded-put.lit"}, 0},
	{"diff_erroneous_side", []string{"diff", "--sem", "A", "--sem", "B", "testdata/sb.lit"}, 1},
	// --fail-on gates on verdicts whatever the expect lines say (all of sb.lit's are met)
	{"run_fail_on_erroneous", []string{"run", "--fail-on", "erroneous", "testdata/sb.lit"}, 1},
	{"run_fail_on_race_sometimes", []string{"run", "--sem", "mpi-4.1", "--fail-on", "race", "--fail-on", "sometimes", "testdata/sb.lit"}, 1},
	{"run_fail_on_clean", []string{"run", "--fail-on", "erroneous,race,sometimes", "testdata/good2.lit"}, 0},
	{"run_fail_on_bad", []string{"run", "--fail-on", "never", "testdata/good2.lit"}, 2},
	// a correct flag poll (U2, valid MPI) passes race and fails unpredictable; it needs
	// asynchronous progress, so may-hang fails it, with --json too
	{"run_fail_on_poll_race", []string{"run", "--fail-on", "race,erroneous", "testdata/mp-flush-poll.lit"}, 0},
	{"run_fail_on_poll_unpredictable", []string{"run", "--sem", "mpi-4.1", "--fail-on", "unpredictable", "testdata/mp-flush-poll.lit"}, 1},
	{"run_fail_on_poll_may_hang", []string{"run", "--sem", "mpi-4.1", "--fail-on", "may-hang", "testdata/mp-flush-poll.lit"}, 1},
	{"run_fail_on_poll_may_hang_json", []string{"run", "--sem", "mpi-4.1", "--hw", "sc", "--json", "--fail-on", "may-hang", "testdata/mp-flush-poll.lit"}, 1},
	// a missing file alone: its error, no empty table and "0 tests" before it
	{"run_missing_only", []string{"run", "testdata/missing.lit"}, 2},
	// a verdict wider than its column widens it: the row's columns stay aligned
	{"run_table_wide", []string{"run", "-v", "../../docs/tutorial/poll-put-get.lit", "testdata/good2.lit"}, 0},
	// a step before a spin loop's await names the await's row once
	{"replay_await_early", []string{"replay", "../../docs/tutorial/pc-shared-nosync-reader.lit", "--sem", "mpi-4.1", "--outcome", "1:r1=0"}, 0},
}

var (
	timeLine = regexp.MustCompile(`(?m)^Time (\S+) [0-9.]+$`)
	rateLine = regexp.MustCompile(`(?m)^Rate (\S+) [0-9]+ runs/s`)
	timeJSON = regexp.MustCompile(`"(pair_)?time_s":[0-9.e+-]+`)
	// the visited set's bytes depend on how the states fall in its shards (by a
	// hash with a random seed): a measurement, like the times
	storeJSON = regexp.MustCompile(`"store_bytes":[0-9]+`)
)

func maskTimes(s string) string {
	s = timeLine.ReplaceAllString(s, "Time $1 T")
	s = rateLine.ReplaceAllString(s, "Rate $1 N runs/s")
	s = storeJSON.ReplaceAllString(s, `"store_bytes":B`)
	return timeJSON.ReplaceAllString(s, `"${1}time_s":T`)
}

func TestRunGolden(t *testing.T) {
	for _, c := range runGoldenCases {
		t.Run(c.name, func(t *testing.T) { checkGolden(t, c.name, c.args, c.code, maskTimes) })
	}
}

// TestConformCLI: the reference target's report (rates and counts vary from run to
// run, so only its shape and verdicts are checked).
func TestConformCLI(t *testing.T) {
	code, out, errs := runCLI("conform", "--target", "reference", "--runs", "20000", "testdata/sb.lit", "testdata/put-no-epoch.lit")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"Histogram (", "Observation SB ", "every observed outcome is allowed", "skipped: the model finds it Erroneous(E-EPOCH)"} {
		if !strings.Contains(out, want) {
			t.Errorf("conform output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI("conform", "--json", "--runs", "1000", "testdata/sb.lit")
	if code != 0 || !strings.Contains(out, `"target":{"kind":"reference"}`) || !strings.Contains(out, `"histogram":[`) || !strings.Contains(out, `"nonconforming":0`) {
		t.Errorf("conform --json: exit %d\n%s", code, out)
	}
	if code, _, errs = runCLI("conform", "--target", "mpi", "testdata/sb.lit"); code != 2 || !strings.Contains(errs, "expected reference, mpich or openmpi") {
		t.Errorf("conform --target mpi: exit %d, %s", code, errs)
	}
}
