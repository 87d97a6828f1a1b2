package explorer

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

func TestAcceptanceDump(t *testing.T) {
	files, _ := filepath.Glob("../../shared/acceptance/*.lit")
	for _, f := range files {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Fatalf("%v", err)
		}
		for _, ex := range lt.Expects {
			hw := model.Relaxed
			if ex.HW != "" {
				hw, _ = model.ParseHW(ex.HW)
			}
			for _, it := range ex.Items {
				sem, _ := spec.Preset(it.Preset)
				p, err := model.Compile(lt, sem, hw)
				if err != nil {
					t.Fatal(err)
				}
				r, err := Explore(p, Options{MaxStates: 1000000})
				if err != nil {
					t.Fatal(err)
				}
				mark := "ok  "
				if !r.Meets(it) {
					mark = "FAIL"
				}
				if os.Getenv("V") != "" || mark == "FAIL" {
					t.Logf("%s %-28s %-8s %-7s want %-24s got %-24s states=%d", mark, filepath.Base(f), it.Preset, hw, it.ObsString(), r.ObservationString(), r.States)
				}
			}
		}
	}
}
