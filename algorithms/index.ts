// Importing this module registers every operation and algorithm.
import './p2p/index.ts';
import './collectives/ops.ts';
import './collectives/semantics/index.ts';
import './collectives/basic/index.ts';
import './collectives/tuned/index.ts';
import './collectives/sm/index.ts';
import './collectives/knem/index.ts';
import './collectives/cma/index.ts';
import './collectives/xpmem/index.ts';
import './collectives/two-level/index.ts';
