package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/spec"
)

// TestCasReplace: compare_and_swap beside fetch_and_op(MPI_REPLACE) on one cell with
// accumulate_ops=same_op_no_op is E-INFO read strictly (every preset), and allowed
// under cas_replace (off in every preset; reports/accumulate-ops), which makes cas a
// replace and nothing more: beside a sum it stays E-INFO. Before the switch every
// program here was E-INFO and cas_replace=on was refused.
func TestCasReplace(t *testing.T) {
	src := func(op string) string {
		return `{ win W allocate size=1; x = W@1[0]; }
 P0           | P1             ;
 lock_all W   | lock_all W     ;
 r0 = fop x ` + op + ` 1 | r1 = cas x 0 2 ;
 unlock_all W | unlock_all W   ;
exists (x=1)
`
	}
	runCases(t, []ruleCase{
		{"replace-cas-strict", "E-INFO: cas is another op than MPI_REPLACE", "mpi-4.1", spec.Relaxed,
			src("replace"), []string{"x=1;"}, []spec.RuleID{spec.EInfo}},
		{"replace-cas-permissive", "cas_replace: cas counts as MPI_REPLACE", "mpi-4.1,cas_replace=on", spec.Relaxed,
			src("replace"), []string{"x=1;"}, nil},
		{"sum-cas-permissive", "cas_replace: a sum beside cas is still two ops", "mpi-3.0,cas_replace=on", spec.Relaxed,
			src("sum"), []string{"x=1;", "x=3;"}, []spec.RuleID{spec.EInfo}},
	})
}
