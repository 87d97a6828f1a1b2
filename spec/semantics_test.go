package spec

import (
	"strings"
	"testing"
)

// presetTable is docs/semantics.md#presets-and-switches's preset table, written out again independently of
// Presets: for each preset, the switches that are on (every other one is off).
var presetTable = []struct {
	preset string
	on     []string
}{
	{"mpi-3.0", nil},
	{"A", []string{"ls_is_rma"}},
	{"B", []string{"fence_ls", "post_start_ls", "complete_wait_ls"}},
	{"mpi-4.1", []string{"fence_ls", "complete_wait_ls", "lock_ls", "flush_ls", "sq_any_flavor", "align_guarantee"}},
}

// switchColumns is the row order of the §4 switch table (the preset table has no
// weak_progress column: it is off in every preset), then cas_replace, the permissive
// reading reports/accumulate-ops asks about, off in every preset and not yet in
// docs/semantics.md.
var switchColumns = []string{
	"ls_is_rma", "fence_ls", "post_start_ls", "complete_wait_ls",
	"lock_ls", "flush_ls", "sq_any_flavor", "align_guarantee", "weak_progress", "cas_replace",
}

func TestSwitchColumns(t *testing.T) {
	if len(Switches) != len(switchColumns) {
		t.Fatalf("%d switches, docs/semantics.md has %d", len(Switches), len(switchColumns))
	}
	for i, name := range switchColumns {
		si := Switches[i]
		if si.Name != name {
			t.Errorf("column %d: switch %q, want %q", i, si.Name, name)
		}
		if si.Switch != Switch(i) {
			t.Errorf("Switches[%d].Switch = %d", i, si.Switch)
		}
		if si.Switch.String() != name {
			t.Errorf("Switch(%d).String() = %q, want %q", i, si.Switch.String(), name)
		}
		if si.Meaning == "" || si.Basis == "" {
			t.Errorf("switch %s: empty meaning or basis", name)
		}
		sw, ok := SwitchByName(name)
		if !ok || sw != Switch(i) {
			t.Errorf("SwitchByName(%q) = %v, %v", name, sw, ok)
		}
	}
	if _, ok := SwitchByName("nonesuch"); ok {
		t.Error(`SwitchByName("nonesuch") found a switch`)
	}
	if got := Switch(99).String(); got != "Switch(99)" {
		t.Errorf("Switch(99).String() = %q", got)
	}
}

func TestPresetTable(t *testing.T) {
	if got, want := strings.Join(PresetNames(), " "), "mpi-3.0 A B mpi-4.1"; got != want {
		t.Errorf("PresetNames() = %q, want %q", got, want)
	}
	if len(Presets) != len(presetTable) {
		t.Fatalf("%d presets, docs/semantics.md has %d", len(Presets), len(presetTable))
	}
	for i, row := range presetTable {
		t.Run(row.preset, func(t *testing.T) {
			if Presets[i].Name != PresetName(row.preset) {
				t.Errorf("Presets[%d] = %q, want %q", i, Presets[i].Name, row.preset)
			}
			sem, ok := Preset(PresetName(row.preset))
			if !ok {
				t.Fatalf("Preset(%q) not found", row.preset)
			}
			if sem.Name != row.preset || sem.Preset != PresetName(row.preset) {
				t.Errorf("Preset(%q) named %q from %q", row.preset, sem.Name, sem.Preset)
			}
			on := map[string]bool{}
			for _, n := range row.on {
				on[n] = true
			}
			for _, col := range switchColumns {
				sw, _ := SwitchByName(col)
				if got := sem.Has(sw); got != on[col] {
					t.Errorf("%s: %s is %v, docs/semantics.md says %v", row.preset, col, got, on[col])
				}
			}
			if got, want := sem.Switches.String(), strings.Join(row.on, ","); got != want {
				t.Errorf("%s switches = %q, want %q", row.preset, got, want)
			}
			if Presets[i].About == "" {
				t.Errorf("%s has no About", row.preset)
			}
		})
	}
	all := AllPresets()
	if len(all) != len(presetTable) {
		t.Fatalf("AllPresets() has %d entries", len(all))
	}
	for i, s := range all {
		if s.Name != presetTable[i].preset {
			t.Errorf("AllPresets()[%d] = %q, want %q", i, s.Name, presetTable[i].preset)
		}
	}
	if _, ok := Preset("mpi-2.2"); ok {
		t.Error(`Preset("mpi-2.2") found`)
	}
	if _, ok := LookupPreset("a"); ok {
		t.Error("preset names are case-sensitive: LookupPreset(\"a\") found A")
	}
}

func TestSetWith(t *testing.T) {
	var s Set
	s = s.With(LockLS, true).With(FenceLS, true)
	if got := s.String(); got != "fence_ls,lock_ls" {
		t.Errorf("String() = %q", got)
	}
	s = s.With(LockLS, false)
	if s.Has(LockLS) || !s.Has(FenceLS) {
		t.Errorf("after turning lock_ls off: %q", s)
	}
	if got := Set(0).String(); got != "" {
		t.Errorf("empty set String() = %q", got)
	}
}

func TestParseSemantics(t *testing.T) {
	names := func(s Semantics) string { return s.Switches.String() }
	tests := []struct {
		arg      string
		name     string
		preset   string
		switches string
	}{
		{"mpi-3.0", "mpi-3.0", "mpi-3.0", ""},
		{"A", "A", "A", "ls_is_rma"},
		{"B", "B", "B", "fence_ls,post_start_ls,complete_wait_ls"},
		{"mpi-4.1", "mpi-4.1", "mpi-4.1", "fence_ls,complete_wait_ls,lock_ls,flush_ls,sq_any_flavor,align_guarantee"},
		{"  mpi-4.1  ", "mpi-4.1", "mpi-4.1", "fence_ls,complete_wait_ls,lock_ls,flush_ls,sq_any_flavor,align_guarantee"},
		// The reading of MPI-3.0 that docs/semantics.md#presets-and-switches mentions.
		{"mpi-3.0,lock_ls=on,flush_ls=on", "mpi-3.0,lock_ls=on,flush_ls=on", "mpi-3.0", "lock_ls,flush_ls"},
		{"mpi-3.0, lock_ls=on", "mpi-3.0,lock_ls=on", "mpi-3.0", "lock_ls"},
		{"A,ls_is_rma=off", "A,ls_is_rma=off", "A", ""},
		{"A,ls_is_rma=false,fence_ls=true", "A,ls_is_rma=false,fence_ls=true", "A", "fence_ls"},
		{"B,post_start_ls=off", "B,post_start_ls=off", "B", "fence_ls,complete_wait_ls"},
		{"mpi-4.1,sq_any_flavor=off,align_guarantee=off", "mpi-4.1,sq_any_flavor=off,align_guarantee=off", "mpi-4.1", "fence_ls,complete_wait_ls,lock_ls,flush_ls"},
		// Turning on a switch that is on changes nothing (a switch given twice is refused: TestParseSemanticsErrors).
		{"mpi-4.1,fence_ls=on", "mpi-4.1,fence_ls=on", "mpi-4.1", "fence_ls,complete_wait_ls,lock_ls,flush_ls,sq_any_flavor,align_guarantee"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			sem, err := ParseSemantics(tt.arg)
			if err != nil {
				t.Fatalf("ParseSemantics(%q): %v", tt.arg, err)
			}
			if sem.Name != tt.name {
				t.Errorf("Name = %q, want %q", sem.Name, tt.name)
			}
			if sem.Preset != PresetName(tt.preset) {
				t.Errorf("Preset = %q, want %q", sem.Preset, tt.preset)
			}
			if got := names(sem); got != tt.switches {
				t.Errorf("switches = %q, want %q", got, tt.switches)
			}
		})
	}
}

func TestParseSemanticsErrors(t *testing.T) {
	const presets = "mpi-3.0, A, B, mpi-4.1"
	const switches = "align_guarantee, cas_replace, complete_wait_ls, fence_ls, flush_ls, lock_ls, ls_is_rma, post_start_ls, sq_any_flavor, weak_progress"
	tests := []struct {
		arg string
		msg string
	}{
		{"mpi-5.0", `unknown preset "mpi-5.0" in --sem "mpi-5.0" (presets: ` + presets + `)`},
		{"", `unknown preset "" in --sem "" (presets: ` + presets + `)`},
		{"a", `unknown preset "a" in --sem "a" (presets: ` + presets + `)`},
		{"mpi-4.1,fence=on", `unknown switch "fence" in --sem "mpi-4.1,fence=on" (switches: ` + switches + `)`},
		{"mpi-4.1,", `unknown switch "" in --sem "mpi-4.1," (switches: ` + switches + `)`},
		{"mpi-3.0,lock_ls", `switch "lock_ls" in --sem "mpi-3.0,lock_ls" needs a value: lock_ls=on or lock_ls=off`},
		{"mpi-3.0,lock_ls=yes", `switch lock_ls in --sem "mpi-3.0,lock_ls=yes": expected on or off, found "yes"`},
		{"mpi-3.0,lock_ls=", `switch lock_ls in --sem "mpi-3.0,lock_ls=": expected on or off, found ""`},
		{"mpi-3.0,lock_ls=ON", `switch lock_ls in --sem "mpi-3.0,lock_ls=ON": expected on or off, found "ON"`},
		{"mpi-3.0,lock_ls=on,lock_ls=off", `switch lock_ls given twice in --sem "mpi-3.0,lock_ls=on,lock_ls=off"`}, // as expect lines
		{"mpi-3.0,lock_ls=on,lock_ls=on", `switch lock_ls given twice in --sem "mpi-3.0,lock_ls=on,lock_ls=on"`},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			sem, err := ParseSemantics(tt.arg)
			if err == nil {
				t.Fatalf("ParseSemantics(%q) = %+v, want error", tt.arg, sem)
			}
			if err.Error() != tt.msg {
				t.Errorf("ParseSemantics(%q) error\n got: %s\nwant: %s", tt.arg, err, tt.msg)
			}
			if sem != (Semantics{}) {
				t.Errorf("ParseSemantics(%q) returned %+v with its error", tt.arg, sem)
			}
		})
	}
}

// TestSemanticsWith: a switch set on a semantics is named as --sem names it, and
// parses back to the same switches; setting it as it already is changes nothing.
func TestSemanticsWith(t *testing.T) {
	sem, _ := Preset("mpi-4.1")
	cases := []struct {
		sw   Switch
		on   bool
		name string
	}{
		{WeakProgress, true, "mpi-4.1,weak_progress=on"},
		{FenceLS, true, "mpi-4.1"},
		{FenceLS, false, "mpi-4.1,fence_ls=off"},
	}
	for _, c := range cases {
		got := sem.With(c.sw, c.on)
		back, err := ParseSemantics(got.Name)
		if got.Name != c.name || err != nil || back.Switches != got.Switches || got.Has(c.sw) != c.on {
			t.Errorf("With(%s, %v) = %q %v (parsed back: %v, %v), want %q", c.sw, c.on, got.Name, got.Switches, back.Switches, err, c.name)
		}
	}
	if got := sem.With(WeakProgress, true).Changes(); got != "weak_progress=on" {
		t.Errorf("Changes() = %q, want weak_progress=on", got)
	}
}
