// The collective operations: name, root, description as `intranode algorithms` lists them.
import type { OperationInfo } from '../operations.ts';

export const COLLECTIVE_OPERATIONS: ReadonlyArray<[name: string, rooted: boolean, description: string]> = [
  ['bcast', true, "the root's buffer is copied to every rank"],
  ['scatter', true, "block r of the root's buffer goes to rank r (equal blocks)"],
  ['scatterv', true, "block r of the root's buffer goes to rank r (per-rank counts and displacements)"],
  ['gather', true, "every rank's buffer lands as block r of the root's buffer (equal blocks)"],
  ['gatherv', true, "every rank's buffer lands at its displacement in the root's buffer (per-rank counts)"],
  ['alltoall', false, 'block j of rank i goes to block i of rank j (equal blocks)'],
  ['alltoallv', false, 'block j of rank i goes to block i of rank j (per-pair counts and displacements)'],
  ['allgather', false, "every rank receives every rank's buffer, in rank order (equal blocks)"],
  ['allgatherv', false, "every rank receives every rank's buffer at its displacement (per-rank counts)"],
  ['reduce', true, "element-wise reduction (params.op, default sum) of every rank's buffer at the root"],
  ['allreduce', false, "element-wise reduction (params.op, default sum) of every rank's buffer at every rank"],
  ['barrier', false, 'no rank leaves before every rank has entered'],
];

/** Names of the collective operations (not the point-to-point benchmarks). */
export const collectiveNames: ReadonlySet<string> = new Set(COLLECTIVE_OPERATIONS.map(([name]) => name));

const V_COUNTS: Record<string, 'per-rank' | 'per-pair'> = {
  scatterv: 'per-rank',
  gatherv: 'per-rank',
  allgatherv: 'per-rank',
  alltoallv: 'per-pair',
};

export const collectiveOperations: readonly OperationInfo[] = COLLECTIVE_OPERATIONS.map(
  ([name, rooted, description]) => ({
    name,
    rooted,
    description,
    counts: V_COUNTS[name],
    ...(name === 'barrier' ? { sizeless: true } : {}),
  }),
);
