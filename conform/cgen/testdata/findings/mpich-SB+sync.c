/* Finding (rmacheck conform --target mpich --runs 100000 --seed 3 02-SB+sync.lit): MPICH 4.0.2 shows
 * 0:r0=0 /\ 1:r0=0 in 458 of 100000 runs (seed 1, 5000 runs: 8-25 per preset), Open MPI 4.1.4 and the
 * reference runtime never: MPI_Win_sync between the store and the load does not act as a full
 * memory barrier on an MPI_Win_allocate_shared window. Build: mpicc.mpich -O2 -o t mpich-SB+sync.c;
 * run: mpiexec.mpich -n 2 ./t 100000 */
/* rmacheck cgen: litmus test SB+sync (02-SB+sync.lit)
 *
 *   MPI SB+sync
 *   "Store buffering with MPI_Win_sync between the store and the load, inside lock_all."
 *   {
 *     win W allocate_shared size=1;
 *     x = W@0[0];
 *     y = W@1[0];
 *   }
 *    P0                 | P1                 ;
 *    lock_all W nocheck | lock_all W nocheck ;
 *    store x 1          | store y 1          ;
 *    sync W             | sync W             ;
 *    r0 = load y        | r0 = load x        ;
 *    unlock_all W       | unlock_all W       ;
 *   exists (0:r0=0 /\ 1:r0=0)
 *   expect mpi-3.0=Never A=Never B=Never mpi-4.1=Never
 *   expect hw=tso: mpi-3.0=Never A=Never B=Never mpi-4.1=Never
 *
 * Build: mpicc -O2 -Wall -Werror -o test test.c
 * Run:   mpiexec -n 2 ./test [iterations [seed [jitter]]]
 * Each iteration resets the windows to their initial values, releases the ranks together
 * with a spin barrier in a shared-memory segment of its own (MPI_Barrier would serialize
 * them), runs each rank's column, and records the outcome. Rank 0 prints one line
 *   OUTCOME count v1 v2 ...
 * per observed outcome, values in the order of the out= list of the first line.
 */

#define NPROCS 2
#define NOUT 2
#define DEFAULT_RUNS 10000
#define DEFAULT_JITTER 4

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
static const char *const test_name = "SB+sync";
static const char *const out_names = "0:r0,1:r0";

/* window W: win W allocate_shared size=1 */
static MPI_Win win_W = MPI_WIN_NULL;
static char *base_W;            /* my segment */
static char *seg_W[NPROCS];     /* segments for load/store, from MPI_Win_shared_query */
static const MPI_Aint bytes_W[NPROCS] = {8, 8};

/* Groups of post and start calls, made once. */

static void make_groups(void) {
}

/* Creates the windows (collective over each window's group), records their
 * MPI_WIN_MODEL, and finds the segments load/store may reach. */
static void create_windows(int first) {
    /* win W allocate_shared size=1 */
    {
        MPI_Info info;
        MPI_Info_create(&info);
        CHECK(0, MPI_Win_allocate_shared(bytes_W[me], 8, info, tcomm, &base_W, &win_W));
        MPI_Info_free(&info);
        MPI_Win_set_errhandler(win_W, MPI_ERRORS_RETURN);
        for (int r = 0; r < NPROCS; r++) {
            static const int trank[NPROCS] = {0, 1};
            MPI_Aint size; int du; void *ptr = NULL;
            seg_W[r] = NULL;
            if (trank[r] >= 0 && MPI_Win_shared_query(win_W, trank[r], &size, &du, &ptr) == MPI_SUCCESS)
                seg_W[r] = ptr;
        }
    }
    if (first)
        rmc_win_model(win_W, "W", MPI_WIN_UNIFIED);
}

/* Frees the windows (the test's own free calls excepted). */
static void free_windows(void) {
    if (win_W != MPI_WIN_NULL) {
        MPI_Win_free(&win_W);
    }
    win_W = MPI_WIN_NULL;
}

/* Puts my segments back to the initial values (0 unless the init block says otherwise). */
static void reset_memory(void) {
    if (bytes_W[me] > 0)
        memset(base_W, 0, bytes_W[me]);
}

/* P0: the column of rank 0 */
static void proc_0(int64_t *out) {
    int64_t r0 = 0;
    /* row 1: lock_all W nocheck */
    CHECK(1, MPI_Win_lock_all(MPI_MODE_NOCHECK, win_W));
    /* row 2: store x 1 */
    *(volatile int64_t *)(base_W + 0) = 1;
    /* row 3: sync W */
    CHECK(3, MPI_Win_sync(win_W));
    /* row 4: r0 = load y */
    if (!seg_W[1])
        rmc_fail("load/store to rank 1's segment of window W, which MPI_Win_shared_query did not give", 4);
    r0 = *(volatile int64_t *)(seg_W[1] + 0);
    /* row 5: unlock_all W */
    CHECK(5, MPI_Win_unlock_all(win_W));
    out[0] = r0; /* 0:r0 */
    (void)out;
}

/* P1: the column of rank 1 */
static void proc_1(int64_t *out) {
    int64_t r0 = 0;
    /* row 1: lock_all W nocheck */
    CHECK(1, MPI_Win_lock_all(MPI_MODE_NOCHECK, win_W));
    /* row 2: store y 1 */
    *(volatile int64_t *)(base_W + 0) = 1;
    /* row 3: sync W */
    CHECK(3, MPI_Win_sync(win_W));
    /* row 4: r0 = load x */
    if (!seg_W[0])
        rmc_fail("load/store to rank 0's segment of window W, which MPI_Win_shared_query did not give", 4);
    r0 = *(volatile int64_t *)(seg_W[0] + 0);
    /* row 5: unlock_all W */
    CHECK(5, MPI_Win_unlock_all(win_W));
    out[1] = r0; /* 1:r0 */
    (void)out;
}

/* Records the final values of the cells I own that the outcome shows. */
static void read_cells(int64_t *out) {
    (void)out;
}

int main(int argc, char **argv) {
    long runs = argc > 1 ? atol(argv[1]) : DEFAULT_RUNS;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    long jitter = argc > 3 ? atol(argv[3]) : DEFAULT_JITTER;
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != NPROCS) {
        if (me == 0)
            printf("ERROR the test needs %d processes, not %d (mpiexec -n %d)\n", NPROCS, size, NPROCS);
        MPI_Finalize();
        return 2;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &tcomm);
    rng_state = seed * 0x9E3779B97F4A7C15ull + (uint64_t)me * 0xBF58476D1CE4E5B9ull + 1;
    {   /* the spin barrier's segment: every rank must share memory with every other */
        MPI_Comm node;
        int nsize;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        MPI_Comm_size(node, &nsize);
        if (nsize != NPROCS) {
            if (me == 0)
                printf("ERROR the processes must share one node (memory) for the spin barrier\n");
            MPI_Finalize();
            return 2;
        }
        MPI_Aint bsize; int bdu;
        MPI_Win_allocate_shared(me == 0 ? sizeof(struct rmc_barrier) : 0, 1, MPI_INFO_NULL, node, &bar, &bar_win);
        MPI_Win_shared_query(bar_win, 0, &bsize, &bdu, &bar);
        if (me == 0)
            memset(bar, 0, sizeof *bar);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (me == 0) {
        printf("RMACHECK test=%s procs=%d out=%s\n", test_name, NPROCS, out_names);
        fflush(stdout);
    }
    make_groups();
    create_windows(1);
    if (rmc_skip) {
        free_windows();
        MPI_Win_free(&bar_win);
        MPI_Finalize();
        return 0;
    }
    enum { BATCH = 4096 };
    int64_t *rows = calloc((size_t)BATCH * (NOUT + 1), sizeof(int64_t));
    int64_t *sum = calloc((size_t)BATCH * (NOUT + 1), sizeof(int64_t));
    long nbins = 0, capbins = 64;
    int64_t *bins = malloc((size_t)capbins * (NOUT + 1) * sizeof(int64_t)); /* count, values */
    double elapsed = 0;
    for (long done = 0; done < runs;) {
        long batch = runs - done < BATCH ? runs - done : BATCH;
        memset(rows, 0, (size_t)batch * (NOUT + 1) * sizeof(int64_t));
        double t0 = MPI_Wtime();
        for (long it = 0; it < batch; it++) {
            int64_t *out = rows + it * (NOUT + 1);
            reset_memory();
            spin_barrier(); /* start */
            for (long d = jitter > 0 ? (long)(rng() % (uint64_t)(jitter + 1)) : 0; d > 0; d--)
                rmc_pause();
            switch (me) {
            case 0: proc_0(out); break;
            case 1: proc_1(out); break;
            }
            spin_barrier(); /* end: every column has finished */
            read_cells(out);
        }
        elapsed += MPI_Wtime() - t0;
        /* each value has one owner (a register's rank, a cell's owner): the sum gathers them */
        MPI_Reduce(rows, sum, (int)(batch * (NOUT + 1)), MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
        if (me == 0) {
            for (long it = 0; it < batch; it++) {
                int64_t *v = sum + it * (NOUT + 1);
                long b;
                for (b = 0; b < nbins; b++)
                    if (memcmp(bins + b * (NOUT + 1) + 1, v, NOUT * sizeof(int64_t)) == 0)
                        break;
                if (b == nbins) {
                    if (nbins == capbins) {
                        capbins *= 2;
                        bins = realloc(bins, (size_t)capbins * (NOUT + 1) * sizeof(int64_t));
                    }
                    bins[b * (NOUT + 1)] = 0;
                    memcpy(bins + b * (NOUT + 1) + 1, v, NOUT * sizeof(int64_t));
                    nbins++;
                }
                bins[b * (NOUT + 1)]++;
            }
        }
        done += batch;
    }
    if (me == 0) {
        for (long b = 0; b < nbins; b++) {
            printf("OUTCOME %lld", (long long)bins[b * (NOUT + 1)]);
            for (int k = 0; k < NOUT; k++)
                printf(" %lld", (long long)bins[b * (NOUT + 1) + 1 + k]);
            printf("\n");
        }
        printf("TIME %.6f iterations=%ld\n", elapsed, runs);
        fflush(stdout);
    }
    free_windows();
    free(rows);
    free(sum);
    free(bins);
    MPI_Win_free(&bar_win);
    MPI_Finalize();
    return 0;
}
