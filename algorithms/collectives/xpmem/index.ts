// The XPMEM collectives: the zero-copy partitioned reductions of Hashmi et al. (seed 001), and a
// broadcast and gather that read or write the peer's buffer through XPMEM attachments.
import './allreduce.ts';
import './reduce.ts';
import './bcast.ts';
import './gather.ts';
