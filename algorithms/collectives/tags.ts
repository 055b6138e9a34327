// Message tags of the collectives over point-to-point (the basic and tuned families), as Open MPI
// numbers them (ompi/mca/coll/base/coll_tags.h, shared by its basic and tuned components), so two
// collectives in a row never match each other's messages.
export const TAG = {
  allgather: -10,
  allgatherv: -11,
  allreduce: -12,
  alltoall: -13,
  alltoallv: -14,
  barrier: -16,
  bcast: -17,
  gather: -19,
  gatherv: -20,
  reduce: -21,
  scatter: -24,
  scatterv: -25,
} as const;
