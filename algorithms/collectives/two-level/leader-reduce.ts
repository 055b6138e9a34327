// The first level of the two-level reductions: the `intra` reduce algorithm reduces inside each
// NUMA node to its leader, into the leader's partial result. With several NUMA nodes that is a
// buffer the leader keeps from call to call; with one, the leader's result is already the final
// one and lands in `recv`. A group of one rank skips the level: its partial result is its data.
import type { Program, Range, Rank, ReduceOp } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import type { ReduceArgs } from '../args.ts';
import { keptBuffer } from '../kept-buffers.ts';
import type { NumaGroups } from './groups.ts';
import type { Inner } from './inner.ts';
import { subRank } from './sub-rank.ts';

export interface LeaderReduce {
  send: Range;
  /** Where the final result goes on this rank, if anywhere. */
  recv: Range | undefined;
  bytes: number;
  op: ReduceOp;
}

/** Runs the intra-node level on sub-communicator `context`; returns this rank's partial result (undefined off the leaders). */
export function* reduceToLeader(
  rank: Rank,
  g: NumaGroups,
  intra: Inner<'reduce'>,
  { send, recv, bytes, op }: LeaderReduce,
  context: number,
): Program<Range | undefined> {
  const me = rank.id;
  const group = g.groupOf(me);
  if (group.length === 1) return send;
  const leader = g.leaderOf(me);
  const partial =
    me !== leader ? undefined : g.leaders.length > 1 ? range(keptBuffer(rank, 'two-level partial', bytes)) : recv;
  const comm = subRank(rank, group, context);
  yield* intra.program(comm, {
    send,
    recv: partial,
    bytes,
    op,
    root: group.indexOf(leader),
    params: { ...intra.params, op },
  } satisfies ReduceArgs);
  return partial;
}
