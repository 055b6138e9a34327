// Importing this module registers the basic family: Open MPI's coll_basic linear algorithms over
// point-to-point.
import './bcast.ts';
import './scatter.ts';
import './scatterv.ts';
import './gather.ts';
import './gatherv.ts';
import './alltoall.ts';
import './alltoallv.ts';
import './allgather.ts';
import './allgatherv.ts';
import './reduce.ts';
import './allreduce.ts';
import './barrier.ts';
