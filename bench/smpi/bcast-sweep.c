/* The 48-rank broadcast sweep of the speed comparison (bench/smpi-compare.ts), as an MPI program for
 * SimGrid's SMPI: MPI_Bcast from rank 0, 16 KiB to 16 MiB doubling, ITERATIONS calls per size.
 * SMPI simulates it; the comparison measures the CPU time that simulation takes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ITERATIONS 10

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long largest = 16L << 20;
  char *buf = malloc(largest);
  if (buf == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  for (long bytes = 16L << 10; bytes <= largest; bytes *= 2) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int i = 0; i < ITERATIONS; i++) MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    double took = MPI_Wtime() - start;
    if (rank == 0) printf("%ld %.3f\n", bytes, took / ITERATIONS * 1e6);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
