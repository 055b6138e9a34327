// Importing this module registers the tuned family: Open MPI's coll_base algorithms over
// point-to-point and `<op>:tuned`, which picks among them with coll_tuned's fixed rules.
import './allgather-bruck.ts';
import './allgather-neighbor-exchange.ts';
import './allgather-recursive-doubling.ts';
import './allgather-ring.ts';
import './allreduce-nonoverlapping.ts';
import './allreduce-recursive-doubling.ts';
import './allreduce-ring.ts';
import './alltoall-bruck.ts';
import './alltoall-linear.ts';
import './alltoall-pairwise.ts';
import './barrier-dissemination.ts';
import './barrier-recursive-doubling.ts';
import './bcast-binomial.ts';
import './bcast-linear.ts';
import './bcast-pipeline.ts';
import './bcast-split-binary.ts';
import './gather-binomial.ts';
import './gather-linear-sync.ts';
import './gather-linear.ts';
import './reduce-binary.ts';
import './reduce-binomial.ts';
import './reduce-linear.ts';
import './reduce-pipeline.ts';
import './scatter-binomial.ts';
import './scatter-linear.ts';
import './tuned.ts';
