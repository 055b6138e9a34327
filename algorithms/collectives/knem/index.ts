// The KNEM collectives (Ma et al. 2010, seed 000): linear (§IV) and hierarchical pipelined (§V).
import './linear-bcast.ts';
import './linear-scatter.ts';
import './linear-gather.ts';
import './linear-alltoall.ts';
import './linear-allgather.ts';
import './hierarchical-bcast.ts';
import './hierarchical-allgather.ts';
