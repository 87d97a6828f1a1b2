package model_test

import (
	"testing"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

// TestStubbornIssueDependence: under ls_is_rma (preset A) a remote store's issue
// touches its process's registers and its slot (the perform writes memory): under
// relaxed, where it can be enabled with its process's later plain accesses to other
// cells, it is independent of them unless a register is shared; it stays
// dependent on its process's other instructions (arithmetic, MPI calls, which keep
// program order with it anyway); under sc and tso one process's steps run in
// program order and are never enabled together.
func TestStubbornIssueDependence(t *testing.T) {
	const src = `MPI issue
{
  win W allocate_shared size=2;
  x = W@0[0]; y = W@1[0]; z = W@0[1];
}
 P0           | P1           ;
 lock_all W   | lock_all W   ;
 store y 1    | r0 = load y  ;
 store x 2    | unlock_all W ;
 r1 = load z  |              ;
 r2 = r1 + 1  |              ;
 store y r2   |              ;
 flush_all W  |              ;
 r3 = load x  |              ;
 unlock_all W |              ;
exists (1:r0=0)
`
	lt, err := litmus.Parse("issue.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := litmus.Validate(lt); err != nil {
		t.Fatal(err)
	}
	sem, _ := spec.Preset("A")
	for _, hw := range spec.HWModels {
		p, err := model.Compile(lt, sem, hw)
		if err != nil {
			t.Fatal(err)
		}
		if !model.StubbornInScope(p) {
			t.Fatalf("%s: remote stores in lock_all under A are in scope", hw)
		}
		for _, c := range []struct {
			name    string
			j, i    int
			relaxed bool // dependent under relaxed (sc, tso: never)
		}{
			{"the issue of store y 1 against the local store x 2", 1, 2, false},
			{"the issue of store y 1 against the load of z", 1, 3, false},
			{"the issue of store y 1 against the register arithmetic (not an access)", 1, 4, true},
			{"the issue of store y 1 against flush_all (ordered: MPI calls)", 1, 6, false},
		} {
			want := c.relaxed && hw == spec.Relaxed
			for _, rev := range []bool{false, true} {
				j, i := c.j, c.i
				if rev {
					j, i = i, j
				}
				if got, _ := model.StubbornDependent(p, 0, j, 0, i); got != want {
					t.Errorf("%s: %s (reversed %v): dependent %v, want %v", hw, c.name, rev, got, want)
				}
			}
		}
	}
}

// TestStubbornDeadRemoteLoad: under ls_is_rma a remote load whose register nothing
// reads (no instruction, no outcome item) reads a value the quotient drops at once:
// it is independent of another process's store to its cell, as a dead plain load
// is; a live one is dependent (under sc and relaxed; under tso the store writes its
// buffer, and its drain is what conflicts).
func TestStubbornDeadRemoteLoad(t *testing.T) {
	const src = `MPI deadload
{
  win W allocate_shared size=1;
  x = W@0[0];
}
 P0           | P1           ;
 lock_all W   | lock_all W   ;
 store x 2    | r0 = load x  ;
 unlock_all W | r1 = load x  ;
              | unlock_all W ;
exists (1:r1=0)
`
	lt, err := litmus.Parse("deadload.lit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := litmus.Validate(lt); err != nil {
		t.Fatal(err)
	}
	sem, _ := spec.Preset("A")
	for _, hw := range spec.HWModels {
		p, err := model.Compile(lt, sem, hw)
		if err != nil {
			t.Fatal(err)
		}
		if !model.StubbornInScope(p) {
			t.Fatalf("%s: plain and remote accesses in lock_all under A are in scope", hw)
		}
		for _, c := range []struct {
			name string
			i    int
			want bool
		}{{"the dead remote load r0", 1, false}, {"the live remote load r1", 2, hw != spec.TSO}} {
			if got, _ := model.StubbornDependent(p, 0, 1, 1, c.i); got != c.want {
				t.Errorf("%s: store x 2 against %s: dependent %v, want %v", hw, c.name, got, c.want)
			}
		}
	}
}
