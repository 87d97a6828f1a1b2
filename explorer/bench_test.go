package explorer_test

import (
	"os"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/model"
	"github.com/rmacheck/rmacheck/spec"
)

func BenchmarkStressFile(b *testing.B) {
	path := os.Getenv("STRESS")
	if path == "" {
		b.Skip("STRESS not set")
	}
	lt, err := litmus.ParseFile(path)
	if err != nil {
		b.Fatal(err)
	}
	sem, _ := spec.Preset("mpi-3.0")
	p, _ := model.Compile(lt, sem, model.Relaxed)
	for i := 0; i < b.N; i++ {
		r, err := explorer.Explore(p, explorer.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.States)/r.Time.Seconds(), "states/s")
	}
}
