// The CMA collectives: the linear designs of Ma et al. 2010 (seed 000, §IV) over Cross Memory
// Attach, and contention-aware variants that bound the readers of one process (seed 001).
import './bcast.ts';
import './scatter.ts';
import './gather.ts';
import './alltoall.ts';
import './allgather.ts';
