package litmus

import (
	"os"
	"testing"
)

// TestShow prints the errors of $LIT_SHOW (a development aid).
func TestShow(t *testing.T) {
	f := os.Getenv("LIT_SHOW")
	if f == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(f)
	tst, err := Parse("t.lit", src)
	t.Logf("test nil: %v\n%v", tst == nil, err)
	if tst != nil {
		t.Logf("\n%s", Format(tst))
	}
}
