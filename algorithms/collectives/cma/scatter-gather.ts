// CMA scatter, scatterv, gather and gatherv (Ma et al. 2010, seed 000, §IV.B, with CMA in place
// of KNEM), over the shared core of rooted.ts. Scatter: the root sends the address of its send
// buffer and each non-root rank reads only its own block with process_vm_readv (receiver-reading,
// in parallel). Gather, the opposite: every non-root rank writes its block into the root's receive
// buffer with process_vm_writev (sender-writing), so the copies run on the senders' cores. writev
// pins the root's pages under the same page-table lock as readv, so both staggered variants admit
// their peers in waves of `concurrency` (seed 001).
import type { AlgorithmProgram } from '../../algorithm.ts';
import { withEqualBlocks } from '../blocks.ts';
import { cmaDesigns } from './designs.ts';
import type { Concurrency } from './params.ts';
import { cmaRootedOf } from './rooted.ts';

const scatterv =
  (c: Concurrency): AlgorithmProgram<'scatterv'> =>
  (rank, a) =>
    cmaRootedOf(
      rank,
      { way: 'scatter', root: a.root, shared: a.send, own: a.recv, counts: a.counts, displs: a.displs },
      c(a.params),
    );
const scatter =
  (c: Concurrency): AlgorithmProgram<'scatter'> =>
  (rank, a) =>
    scatterv(c)(rank, withEqualBlocks(a, rank.size));
const gatherv =
  (c: Concurrency): AlgorithmProgram<'gatherv'> =>
  (rank, a) =>
    cmaRootedOf(
      rank,
      { way: 'gather', root: a.root, shared: a.recv, own: a.send, counts: a.counts, displs: a.displs },
      c(a.params),
    );
const gather =
  (c: Concurrency): AlgorithmProgram<'gather'> =>
  (rank, a) =>
    gatherv(c)(rank, withEqualBlocks(a, rank.size));

const waves = (who: string, op: string) =>
  `as ${op}:cma-linear, the ${who} admitted in waves of \`concurrency\` (limits page-table lock contention, seed 001)`;
const reads = (what: string) =>
  `root sends its send buffer's address; each rank reads ${what} with process_vm_readv, all at once`;
const writes = (what: string) =>
  `root sends its receive buffer's address; every rank writes ${what} with process_vm_writev, all at once`;
const PAPER = ' (Ma et al. 2010 §IV.B over CMA)';

export const [scatterCmaLinear, scatterCmaStaggered] = cmaDesigns('scatter', scatter, {
  linear: reads('its own block') + PAPER,
  staggered: waves('readers', 'scatter'),
});
export const [scattervCmaLinear, scattervCmaStaggered] = cmaDesigns('scatterv', scatterv, {
  linear: reads('its block at its displacement'),
  staggered: waves('readers', 'scatterv'),
});
export const [gatherCmaLinear, gatherCmaStaggered] = cmaDesigns('gather', gather, {
  linear: writes('its block') + PAPER,
  staggered: waves('writers', 'gather'),
});
export const [gathervCmaLinear, gathervCmaStaggered] = cmaDesigns('gatherv', gatherv, {
  linear: writes('its block at its displacement'),
  staggered: waves('writers', 'gatherv'),
});
