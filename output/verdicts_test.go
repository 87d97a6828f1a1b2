package output

import "testing"

// TestWrap: lines of at most width columns, broken at blanks, later lines indented;
// width 0 keeps the text as it is; a word longer than the width has a line of its own.
func TestWrap(t *testing.T) {
	for _, c := range []struct {
		head, text string
		width      int
		indent     string
		want       string
	}{
		{"SB  ", "racy  under mpi-4.1", 0, "", "SB  racy  under mpi-4.1\n"},
		{"SB  ", "racy  under mpi-4.1", 30, "", "SB  racy under mpi-4.1\n"},
		{"SB  ", "racy under mpi-4.1 (and mpi-3.0, B): data race", 24, "      ", "SB  racy under mpi-4.1\n      (and mpi-3.0, B):\n      data race\n"},
		{"", "a very-long-word-beyond-the-width b", 8, "  ", "a\n  very-long-word-beyond-the-width\n  b\n"},
	} {
		if got := Wrap(c.head, c.text, c.width, c.indent); got != c.want {
			t.Errorf("Wrap(%q, %q, %d) = %q, want %q", c.head, c.text, c.width, got, c.want)
		}
	}
}
