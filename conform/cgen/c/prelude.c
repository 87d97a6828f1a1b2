/* c/prelude.c: the start of every C program rmacheck cgen writes, embedded in the Go
 * package with //go:embed. cgen writes what follows the marker line below, after the
 * test's #defines (NPROCS, NOUT, DEFAULT_RUNS, DEFAULT_JITTER). The lines up to the
 * marker are for reading this file alone, with a linter or with
 *   mpicc.mpich -fsyntax-only -Wall -Wno-unused-function prelude.c
 */
#ifndef NPROCS
#define NPROCS 2
#endif
/* ---- cgen prelude ---- */

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>

typedef int64_t rmc_v32 __attribute__((vector_size(32)));
typedef int64_t rmc_v64 __attribute__((vector_size(64)));
#define rmc_v32_of(v) ((rmc_v32){(v), (v), (v), (v)})
#define rmc_v64_of(v) ((rmc_v64){(v), (v), (v), (v), (v), (v), (v), (v)})

static int me;          /* my rank in MPI_COMM_WORLD = the test's process number */
static MPI_Comm tcomm;  /* a duplicate of MPI_COMM_WORLD for the test's barriers and messages */

/* Any MPI error aborts the run with the row that made the call. */
static void rmc_check(int err, const char *call, int row) {
    if (err != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0, cls = 0;
        MPI_Error_class(err, &cls);
        MPI_Error_string(err, msg, &len);
        printf("ERROR rank %d row %d: %s: error class %d: %s\n", me, row, call, cls, msg);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
}
#define CHECK(row, call) rmc_check((call), #call, (row))

static void __attribute__((unused)) rmc_fail(const char *msg, int row) {
    printf("ERROR rank %d row %d: %s\n", me, row, msg);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

static inline void rmc_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Sense-reversing spin barrier on a counter in an MPI_Win_allocate_shared segment of its
 * own. Waiters poll MPI now and then (MPI_Iprobe) so that libraries whose RMA progresses
 * only inside MPI calls make progress, and yield when oversubscribed. */
struct rmc_barrier { volatile int count; volatile int sense; char pad[56]; };
static struct rmc_barrier *bar;
static MPI_Win bar_win;
static int bar_sense;

static void spin_barrier(void) {
    int sense = !bar_sense, flag;
    bar_sense = sense;
    if (__atomic_add_fetch(&bar->count, 1, __ATOMIC_ACQ_REL) == NPROCS) {
        __atomic_store_n(&bar->count, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&bar->sense, sense, __ATOMIC_SEQ_CST);
        return;
    }
    for (unsigned long spins = 1; __atomic_load_n(&bar->sense, __ATOMIC_ACQUIRE) != sense; spins++) {
        rmc_pause();
        if (spins % 1024 == 0) {
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            if (spins % 16384 == 0)
                sched_yield();
        }
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static uint64_t rng_state;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int rmc_skip; /* a window's MPI_WIN_MODEL differs from the declared one */

static void rmc_win_model(MPI_Win win, const char *name, int declared) {
    int *model = NULL, flag = 0, bad = 0, anybad = 0;
    if (win != MPI_WIN_NULL) /* not a member of the window's group: nothing to check */
        MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    int m = win == MPI_WIN_NULL ? declared : flag ? *model : -1;
    if (m != declared)
        bad = 1;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0) {
        printf("MODEL %s %s\n", name, m == MPI_WIN_UNIFIED ? "unified" : m == MPI_WIN_SEPARATE ? "separate" : "unknown");
        if (anybad)
            printf("SKIP window %s: MPI_WIN_MODEL is %s, the test declares %s\n", name,
                   m == MPI_WIN_UNIFIED ? "unified" : m == MPI_WIN_SEPARATE ? "separate" : "unknown",
                   declared == MPI_WIN_UNIFIED ? "unified" : "separate");
        fflush(stdout);
    }
    if (anybad)
        rmc_skip = 1;
}
