/* MPICH 4.0.2 (Debian, ch4:ucx), 2 ranks on one node: MPI_Win_allocate with 8-byte segments.
 * Rank 0 puts 1 into rank 1 displacement 0 between two fences. Observed: rank 0s own
 * segment holds the 1 (local=1 on rank 0), rank 1s memory keeps 7, and MPI_Get from
 * rank 1 to itself reads 1. Segments of 16 or 32 bytes work; 24 and 40 lose the put too.
 * Build: mpicc.mpich -o t mpich-win-allocate-8byte-put.c; run: mpiexec.mpich -n 2 ./t */
#include <mpi.h>
#include <stdio.h>
#include <stdint.h>
int main(int c, char **v) {
  int me; MPI_Init(&c,&v); MPI_Comm_rank(MPI_COMM_WORLD,&me);
  int64_t *base; MPI_Win w;
  MPI_Win_allocate(8, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w);
  *base = 7;
  MPI_Win_fence(0, w);
  int64_t one = 1, got = -1, got0 = -1;
  if (me == 0) MPI_Put(&one, 1, MPI_INT64_T, 1, 0, 1, MPI_INT64_T, w);
  MPI_Win_fence(0, w);
  if (me == 1) MPI_Get(&got, 1, MPI_INT64_T, 1, 0, 1, MPI_INT64_T, w);
  if (me == 0) MPI_Get(&got0, 1, MPI_INT64_T, 1, 0, 1, MPI_INT64_T, w);
  MPI_Win_fence(0, w);
  printf("rank %d: local=%ld get-self=%ld get-from-0=%ld base=%p\n", me, (long)*(volatile int64_t*)base, (long)got, (long)got0, (void*)base);
  MPI_Win_free(&w); MPI_Finalize();
}
