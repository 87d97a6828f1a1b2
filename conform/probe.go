package conform

import (
	"context"
	"errors"
	"fmt"
	"github.com/rmacheck/rmacheck/internal/supervise"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ProbeResult is one fact a probe found about a library, with what the standard says.
type ProbeResult struct {
	Topic   string `json:"topic"`   // library, model, shared_query, alignment, info
	Item    string `json:"item"`    // e.g. "MPI_Win_allocate size=3 rank=1"
	Value   string `json:"value"`   // what the library did
	Verdict string `json:"verdict"` // "ok", "VIOLATES MPI-4.0 alignment", "-" (nothing required) ...
}

// Probe is the result of running the probe program on one library.
type Probe struct {
	Target  Family        `json:"target"`
	Library string        `json:"library"` // MPI_Get_library_version, first line
	Version string        `json:"mpi_version"`
	Results []ProbeResult `json:"results"`
}

// probeAlign is the alignment MPI-4.0 guarantees without the info key: that of the
// largest predefined type, long double on x86-64 (docs/semantics.md#layout-and-alignment).
const probeAlign = 16

// RunProbe compiles and runs the probe program with a library on 2 ranks. When ctx
// ends (an interrupt), the launcher and its ranks are stopped and ctx's cause returned.
func RunProbe(ctx context.Context, lib Library, timeout time.Duration) (*Probe, error) {
	if err := lib.Installed(); err != nil {
		return nil, err
	}
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	dir, err := supervise.MakeDir("probe")
	if err != nil {
		return nil, err
	}
	defer supervise.RemoveDir(dir)
	src, bin := filepath.Join(dir, "probe.c"), filepath.Join(dir, "probe")
	if err := os.WriteFile(src, []byte(ProbeC), 0o644); err != nil {
		return nil, err
	}
	parent := ctx
	ctx, stopClock := supervise.WithClock(parent, timeout) // the time the probe could run, not wall time
	defer stopClock()
	err = lib.CompileC(ctx, src, bin)
	var out []byte
	if err == nil {
		out, err = lib.Launch(ctx, 2, LaunchOptions{Oversubscribe: true}, bin)
	}
	switch {
	case parent.Err() != nil:
		return nil, context.Cause(parent)
	case ctx.Err() != nil:
		return nil, &RunError{Lib: lib.Family.Name(), Reason: stopClock().Describe("the probe"), Hint: "--timeout raises the bound"}
	case err != nil:
		var re *RunError
		if !errors.As(err, &re) {
			err = &RunError{Lib: lib.Family.Name(), Reason: err.Error()}
		}
		return nil, err
	}
	return parseProbe(lib.Family, out)
}

func parseProbe(target Family, out []byte) (*Probe, error) {
	pr := &Probe{Target: target}
	add := func(topic, item, value, verdict string) {
		pr.Results = append(pr.Results, ProbeResult{topic, item, value, verdict})
	}
	for line := range outputLines(out) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "LIB":
			pr.Library = strings.TrimSpace(strings.TrimPrefix(line, "LIB"))
			add("library", "MPI_Get_library_version", pr.Library, "-")
		case "VERSION": // VERSION major minor
			pr.Version = f[1] + "." + f[2]
			add("library", "MPI_VERSION.MPI_SUBVERSION", pr.Version, "-")
		case "MODEL": // MODEL flavor unified|separate
			v := "ok"
			if f[2] != "unified" && f[2] != "separate" {
				v = "VIOLATES MPI-3.0: MPI_WIN_MODEL must be MPI_WIN_UNIFIED or MPI_WIN_SEPARATE"
			}
			add("model", "MPI_WIN_MODEL of "+f[1], f[2], v)
		case "SQ": // SQ flavor ok SIZE | SQ flavor error CLASS FLAVORERR
			add("shared_query", "MPI_Win_shared_query on "+f[1], sqValue(f), sqVerdict(f))
		case "ALIGN": // ALIGN call size minalign rank addrmod64
			size, _ := strconv.Atoi(f[2])
			minAlign, _ := strconv.Atoi(f[3])
			rank := f[4]
			mod, _ := strconv.Atoi(f[5])
			item := fmt.Sprintf("%s size=%d rank=%s", f[1], size, rank)
			if minAlign > 0 {
				item += fmt.Sprintf(" mpi_minimum_memory_alignment=%d", minAlign)
			}
			add("alignment", item, fmt.Sprintf("address %% 64 = %d", mod), alignVerdict(f[1], rank, minAlign, mod))
		case "CONTIG": // CONTIG size minalign 1|0
			v := "ok"
			if f[3] != "1" {
				v = "VIOLATES MPI-3.0: contiguous allocate_shared segments must follow each other"
			}
			item := "MPI_Win_allocate_shared contiguous size=" + f[1]
			if f[2] != "0" {
				item += " mpi_minimum_memory_alignment=" + f[2]
			}
			add("alignment", item+": rank 1 starts where rank 0 ends", map[string]string{"1": "yes", "0": "no"}[f[3]], v)
		case "INFO": // INFO call value|-
			v := "-"
			val := strings.Join(f[2:], " ")
			if val == "-" {
				val = "not reported"
			} else if val != "64" {
				v = "VIOLATES MPI-4.0: reports a value other than the one set"
			}
			add("info", "MPI_Win_get_info of "+f[1]+" mpi_minimum_memory_alignment", val, v)
		case "ERROR":
			return pr, fmt.Errorf("probe: %s", cutLine(line))
		}
	}
	if pr.Library == "" {
		return pr, fmt.Errorf("probe: incomplete output:\n%s", tail(string(out)))
	}
	for i := range pr.Results {
		r := &pr.Results[i]
		for _, v := range []string{"4.0", "4.1"} {
			if strings.Contains(r.Verdict, "VIOLATES MPI-"+v) && pr.Version < v {
				r.Verdict += " (the library implements MPI " + pr.Version + ")"
				break
			}
		}
	}
	return pr, nil
}

// Violations counts the results that break a version of the standard the library
// claims to implement.
func (pr *Probe) Violations() int {
	n := 0
	for _, r := range pr.Results {
		for _, v := range []string{"3.0", "4.0", "4.1"} {
			if strings.Contains(r.Verdict, "VIOLATES MPI-"+v) && pr.Version >= v {
				n++
				break
			}
		}
	}
	return n
}

func sqValue(f []string) string {
	if f[2] == "ok" {
		return "size " + f[3]
	}
	return "error class " + f[3] + map[string]string{"1": " (MPI_ERR_RMA_FLAVOR)", "0": ""}[f[4]]
}

// sqVerdict: MPI-4.0 allows shared_query on allocate_shared windows only (others raise
// MPI_ERR_RMA_FLAVOR); MPI-4.1 allows it on allocate and create windows too, with an
// implementation-defined answer (size 0 or the segment), and still not on dynamic ones.
func sqVerdict(f []string) string {
	flavor, ok := f[1], f[2] == "ok"
	flavorErr := !ok && len(f) > 4 && f[4] == "1"
	switch flavor {
	case "allocate_shared":
		if ok {
			return "ok"
		}
		return "VIOLATES MPI-3.0: shared_query fails on a shared window"
	case "dynamic":
		if flavorErr {
			return "ok"
		}
		if ok {
			return "VIOLATES MPI-4.1: dynamic windows are not shared (MPI_ERR_RMA_FLAVOR expected)"
		}
		return "ok (an error, though not MPI_ERR_RMA_FLAVOR)"
	}
	switch {
	case ok:
		return "ok for MPI-4.1 (implementation-defined); MPI-4.0 expects MPI_ERR_RMA_FLAVOR"
	case flavorErr:
		return "ok for MPI-4.0; VIOLATES MPI-4.1 (no error allowed: size 0 or the segment)"
	}
	return "VIOLATES MPI-4.0 and MPI-4.1 (wrong error class)"
}

// alignVerdict: MPI-4.0 requires MPI_Alloc_mem, MPI_Win_allocate (every rank) and
// MPI_Win_allocate_shared (the first rank of a contiguous window, every rank of a
// noncontig one) to align to the largest predefined type, or to
// mpi_minimum_memory_alignment when larger. Before MPI-4.0 nothing was promised.
func alignVerdict(call, rank string, minAlign, mod int) string {
	need := probeAlign
	if minAlign > need {
		need = minAlign
	}
	if call == "MPI_Win_allocate_shared" && rank != "0" {
		return "- (contiguous: rank 1 follows rank 0)"
	}
	if mod%need == 0 {
		return "ok"
	}
	if minAlign > 0 {
		return fmt.Sprintf("VIOLATES MPI-4.0 alignment (mpi_minimum_memory_alignment=%d not honoured)", minAlign)
	}
	return fmt.Sprintf("VIOLATES MPI-4.0 alignment (%d bytes, the largest predefined type)", need)
}

// ProbeC is the probe program (2 ranks).
const ProbeC = `/* rmacheck probe: what an MPI library does where the standard changed or is vague. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int me;

static const char *model_name(MPI_Win w) {
    int *m = NULL, flag = 0;
    MPI_Win_get_attr(w, MPI_WIN_MODEL, &m, &flag);
    if (!flag) return "none";
    return *m == MPI_WIN_UNIFIED ? "unified" : *m == MPI_WIN_SEPARATE ? "separate" : "other";
}

static void sq(MPI_Win w, const char *flavor) {
    MPI_Aint size = 0; int du = 0; void *p = NULL;
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    int err = MPI_Win_shared_query(w, 1, &size, &du, &p);
    if (me == 0) {
        if (err == MPI_SUCCESS)
            printf("SQ %s ok %ld\n", flavor, (long)size);
        else {
            int cls;
            MPI_Error_class(err, &cls);
            printf("SQ %s error %d %d\n", flavor, cls, cls == MPI_ERR_RMA_FLAVOR);
        }
    }
}

static void report_info(MPI_Win w, const char *call) {
    MPI_Info got;
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Win_get_info(w, &got);
    MPI_Info_get(got, "mpi_minimum_memory_alignment", MPI_MAX_INFO_VAL, val, &flag);
    if (me == 0)
        printf("INFO %s %s\n", call, flag ? val : "-");
    MPI_Info_free(&got);
}

static void align(const char *call, int size, int minalign, void *p) {
    unsigned long a = (unsigned long)(uintptr_t)p, all[2];
    MPI_Gather(&a, 1, MPI_UNSIGNED_LONG, all, 1, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
    if (me == 0)
        for (int r = 0; r < 2; r++)
            printf("ALIGN %s %d %d %d %lu\n", call, size, minalign, r, all[r] % 64);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len, major, minor;
    MPI_Get_library_version(lib, &len);
    MPI_Get_version(&major, &minor);
    if (me == 0) {
        char *nl = strchr(lib, '\n');
        if (nl) *nl = 0;
        printf("LIB %s\nVERSION %d %d\n", lib, major, minor);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char *base;
    MPI_Win w;
    static char mem[64];
    MPI_Win_create(mem, 8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    if (me == 0) printf("MODEL create %s\n", model_name(w));
    sq(w, "create");
    MPI_Win_free(&w);
    MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
    if (me == 0) printf("MODEL allocate %s\n", model_name(w));
    sq(w, "allocate");
    MPI_Win_free(&w);
    MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
    if (me == 0) printf("MODEL allocate_shared %s\n", model_name(w));
    sq(w, "allocate_shared");
    MPI_Win_free(&w);
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    if (me == 0) printf("MODEL dynamic %s\n", model_name(w));
    sq(w, "dynamic");
    MPI_Win_free(&w);

    static const int sizes[] = {1, 3, 7, 17};
    for (int m = 0; m < 2; m++) {
        int minalign = m ? 64 : 0;
        MPI_Info info;
        MPI_Info_create(&info);
        if (minalign)
            MPI_Info_set(info, "mpi_minimum_memory_alignment", "64");
        for (int k = 0; k < 4; k++) {
            int s = sizes[k];
            void *p;
            MPI_Alloc_mem(s, info, &p);
            align("MPI_Alloc_mem", s, minalign, p);
            MPI_Free_mem(p);
            MPI_Win_allocate(s, 1, info, MPI_COMM_WORLD, &base, &w);
            align("MPI_Win_allocate", s, minalign, base);
            if (minalign && k == 0) report_info(w, "MPI_Win_allocate");
            MPI_Win_free(&w);
            MPI_Win_allocate_shared(s, 1, info, MPI_COMM_WORLD, &base, &w);
            align("MPI_Win_allocate_shared", s, minalign, base);
            {
                MPI_Aint sz; int du; char *p0;
                MPI_Win_shared_query(w, 0, &sz, &du, &p0);
                int contig = base == p0 + (me == 0 ? 0 : s), all = 0;
                MPI_Reduce(&contig, &all, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
                if (me == 0) printf("CONTIG %d %d %d\n", s, minalign, all);
            }
            if (minalign && k == 0) report_info(w, "MPI_Win_allocate_shared");
            MPI_Win_free(&w);
            MPI_Info nc;
            MPI_Info_dup(info, &nc);
            MPI_Info_set(nc, "alloc_shared_noncontig", "true");
            MPI_Win_allocate_shared(s, 1, nc, MPI_COMM_WORLD, &base, &w);
            align("MPI_Win_allocate_shared(noncontig)", s, minalign, base);
            MPI_Win_free(&w);
            MPI_Info_free(&nc);
        }
        MPI_Info_free(&info);
    }
    if (me == 0) fflush(stdout);
    MPI_Finalize();
    return 0;
}
`
