// Two-level compositions: one leader per NUMA node, any registered algorithm at each level, each
// level on its own sub-communicator (sub-rank.ts).
import './bcast.ts';
import './reduce.ts';
import './allreduce.ts';
