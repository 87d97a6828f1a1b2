package litmus

import "testing"

// TestExpectSwitches: an expect line may be qualified by switches applied to every
// preset of it (docs/language.md#expect-lines), after or without hw=; fmt prints hw first, then
// the switches as written, and reads its own output back unchanged.
func TestExpectSwitches(t *testing.T) {
	cases := []struct {
		line, canonical, hw, qualifier, sem string
	}{
		{"expect weak_progress=on: mpi-4.1=Erroneous(LIVELOCK)", "expect weak_progress=on: mpi-4.1=Erroneous(LIVELOCK)", "", "weak_progress=on", "mpi-4.1,weak_progress=on"},
		{"expect hw=tso weak_progress=on: mpi-4.1=Never", "expect hw=tso weak_progress=on: mpi-4.1=Never", "tso", "weak_progress=on", "mpi-4.1,weak_progress=on"},
		{"expect   weak_progress=on  hw=sc :mpi-4.1=Never", "expect hw=sc weak_progress=on: mpi-4.1=Never", "sc", "weak_progress=on", "mpi-4.1,weak_progress=on"},
		{"expect lock_ls=on flush_ls=on: mpi-4.1=Never", "expect lock_ls=on flush_ls=on: mpi-4.1=Never", "", "lock_ls=on flush_ls=on", "mpi-4.1,lock_ls=on,flush_ls=on"},
		{"expect hw=tso: mpi-4.1=Never", "expect hw=tso: mpi-4.1=Never", "tso", "", "mpi-4.1"},
	}
	for _, c := range cases {
		src := "MPI t\n{ win W allocate size=1; x = W@1[0]; }\n P0 | P1 ;\n fence W | fence W ;\nexists (x=0)\n" + c.line + "\n"
		tst, err := Parse("t.lit", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", c.line, err)
			continue
		}
		e := tst.Expects[0]
		if (e.HWSet && e.HW.String() != c.hw) || (!e.HWSet && c.hw != "") || e.Qualifier() != c.qualifier || e.String() != c.canonical {
			t.Errorf("%s: hw %q qualifier %q printed %q, want %q %q %q", c.line, e.HW, e.Qualifier(), e.String(), c.hw, c.qualifier, c.canonical)
		}
		if sem, err := e.Semantics(e.Items[0]); err != nil || sem.Name != c.sem {
			t.Errorf("%s: semantics %q (%v), want %q", c.line, sem.Name, err, c.sem)
		}
		once := Format(tst)
		again, err := Parse("t.lit", once)
		if err != nil || string(Format(again)) != string(once) {
			t.Errorf("%s: fmt does not round-trip: %v\n%s", c.line, err, once)
		}
	}
}
