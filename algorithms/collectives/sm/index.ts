// Importing this module registers the sm family: Graham and Shipman's shared-memory fan-in/fan-out
// collectives as in Open MPI coll/sm.
import './allreduce.ts';
import './barrier.ts';
import './bcast.ts';
import './reduce.ts';
