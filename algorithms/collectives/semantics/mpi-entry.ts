// Calls that move nothing end in Open MPI's MPI_* binding (ompi/mpi/c/<op>.c, the same in 1.5.1 and
// 4.1.4), which returns MPI_SUCCESS before it calls the collective component: MPI_Bcast, MPI_Reduce
// and MPI_Allreduce for a count of 0; MPI_Gather, MPI_Scatter, MPI_Allgather and MPI_Alltoall when
// their counts are 0; MPI_Allgatherv when every receive count is 0. MPI_Gatherv, MPI_Scatterv,
// MPI_Alltoallv and MPI_Barrier call the component whatever the counts. Every collective algorithm
// of the catalogue is a component's, so the harness runs none of them for such a call: its ranks
// return at once, as IMB's 0-byte rows show.

/** An equal-count call of a count of 0. */
export const noBytes = (args: { bytes: number }): boolean => args.bytes === 0;

/** A v-call whose every count is 0. */
export const noCounts = (args: { counts: readonly number[] }): boolean => args.counts.every((c) => c === 0);
