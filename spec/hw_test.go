package spec

import "testing"

// TestHW: each hardware model prints and parses back, has a description, and a name
// that is not one is refused with the list of names.
func TestHW(t *testing.T) {
	tests := []struct {
		name string
		hw   HW
	}{
		{"sc", SC},
		{"tso", TSO},
		{"relaxed", Relaxed},
	}
	if len(tests) != len(HWModels) {
		t.Errorf("%d models, want %d", len(HWModels), len(tests))
	}
	for i, tt := range tests {
		if HWModels[i] != tt.hw {
			t.Errorf("HWModels[%d] = %v, want %v (strongest first)", i, HWModels[i], tt.hw)
		}
		if got := tt.hw.String(); got != tt.name {
			t.Errorf("%d.String() = %q, want %q", uint8(tt.hw), got, tt.name)
		}
		if got, err := ParseHW(tt.name); err != nil || got != tt.hw {
			t.Errorf("ParseHW(%q) = %v, %v", tt.name, got, err)
		}
		var back HW
		if text, err := tt.hw.MarshalText(); err != nil || back.UnmarshalText(text) != nil || back != tt.hw {
			t.Errorf("%s: text %q (%v) reads back as %v", tt.name, text, err, back)
		}
		if h := tt.hw.Info(); h.About == "" || h.Text == "" {
			t.Errorf("%s has no description", tt.name)
		}
	}
	for _, bad := range []string{"", "TSO", "arm", "relaxed "} {
		_, err := ParseHW(bad)
		if want := `unknown hardware model "` + bad + `" (expected sc, tso or relaxed)`; err == nil || err.Error() != want {
			t.Errorf("ParseHW(%q) error %v, want %q", bad, err, want)
		}
	}
	var h HW
	if err := h.UnmarshalText([]byte("arm")); err == nil {
		t.Error("a record's unknown hw was read")
	}
	if _, err := HW(7).MarshalText(); err == nil {
		t.Error("HW(7) was printed into a record")
	}
	if got := HWNames(", "); got != "sc, tso, relaxed" {
		t.Errorf("HWNames = %q", got)
	}
}
