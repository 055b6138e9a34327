// Importing this module registers the semantics of every collective operation.
import './bcast.ts';
import './scatter.ts';
import './gather.ts';
import './alltoall.ts';
import './allgather.ts';
import './reduce.ts';
import './barrier.ts';
