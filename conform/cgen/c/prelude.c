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

/* Register arithmetic wraps as the model's does (two's complement); a signed overflow
 * in C is undefined behaviour. */
static inline int64_t __attribute__((unused)) rmc_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t __attribute__((unused)) rmc_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }

static inline void rmc_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Sense-reversing spin barrier on a counter in an MPI_Win_allocate_shared segment of its
 * own. Waiters poll MPI now and then (MPI_Iprobe) so that libraries whose RMA progresses
 * only inside MPI calls make progress, and yield when oversubscribed. When the ranks are
 * on more than one node no memory is shared by all, and the barrier is MPI_Barrier. */
struct rmc_barrier { volatile int count; volatile int sense; char pad[56]; };
static struct rmc_barrier *bar;
static MPI_Win bar_win = MPI_WIN_NULL;
static MPI_Comm bar_comm = MPI_COMM_NULL; /* set when the ranks span nodes */
static int bar_sense;

static void spin_barrier(void) {
    if (bar_comm != MPI_COMM_NULL) {
        MPI_Barrier(bar_comm);
        return;
    }
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

/* Where the ranks run. Rank 0 prints "PLACEMENT nodes=K 0:host 1:host ...": each rank's
 * MPI_Get_processor_name, and K, the nodes (MPI_COMM_TYPE_SHARED) they span. With
 * RMACHECK_ONE_RANK_PER_NODE=1 in the environment every rank counts as a node of its own,
 * to try the cross-node path on one machine. Returns K; node is this rank's node. */
static int rmc_placement(MPI_Comm *node) {
    char name[MPI_MAX_PROCESSOR_NAME + 1] = {0};
    int len = 0, nrank = 0, leader, nodes = 0;
    const char *one = getenv("RMACHECK_ONE_RANK_PER_NODE");
    MPI_Get_processor_name(name, &len);
    if (one != NULL && strcmp(one, "") != 0 && strcmp(one, "0") != 0)
        MPI_Comm_split(MPI_COMM_WORLD, me, 0, node);
    else
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, node);
    MPI_Comm_rank(*node, &nrank);
    leader = nrank == 0;
    MPI_Allreduce(&leader, &nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    char *all = me == 0 ? calloc(NPROCS, MPI_MAX_PROCESSOR_NAME + 1) : NULL;
    MPI_Gather(name, MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (me == 0) {
        printf("PLACEMENT nodes=%d", nodes);
        for (int r = 0; r < NPROCS; r++) {
            char *h = all + (size_t)r * (MPI_MAX_PROCESSOR_NAME + 1);
            for (char *c = h; *c; c++)
                if (*c == ' ' || *c == '\t')
                    *c = '_';
            printf(" %d:%s", r, h);
        }
        printf("\n");
        fflush(stdout);
        free(all);
    }
    return nodes;
}

/* The barrier's memory: a shared segment on the one node, or MPI_Barrier across nodes. */
static void rmc_barrier_init(int nodes, MPI_Comm node) {
    if (nodes > 1) {
        MPI_Comm_dup(MPI_COMM_WORLD, &bar_comm);
        return;
    }
    MPI_Aint bsize;
    int bdu;
    MPI_Win_allocate_shared(me == 0 ? sizeof(struct rmc_barrier) : 0, 1, MPI_INFO_NULL, node, &bar, &bar_win);
    MPI_Win_shared_query(bar_win, 0, &bsize, &bdu, &bar);
    if (me == 0)
        memset(bar, 0, sizeof *bar);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void rmc_barrier_free(void) {
    if (bar_win != MPI_WIN_NULL)
        MPI_Win_free(&bar_win);
    if (bar_comm != MPI_COMM_NULL)
        MPI_Comm_free(&bar_comm);
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
