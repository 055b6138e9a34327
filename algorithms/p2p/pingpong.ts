// Ping-pong between ranks 0 and 1 (OSU latency / IMB PingPong): rank 0 sends, rank 1 receives,
// then answers from its own send buffer, as IMB does (s_buffer and r_buffer on each side; with
// -off_cache neither is warm). Reported time is half the round trip, as those benchmarks report it.
import type { OperationInfo } from '../operations.ts';
import type { OperationSemantics } from '../semantics.ts';
import type { Program, Range, Rank } from '../../sim/node/rank-api.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { defineAlgorithm } from '../algorithm.ts';
import { fillFresh, fillUninitialised, source } from '../fill.ts';

export interface PingPongArgs {
  send: Range;
  recv: Range;
}

export const pingpongOperation: OperationInfo = {
  name: 'pingpong',
  description: 'rank 0 sends to rank 1, which answers from its own send buffer; half the round trip',
  rooted: false,
  minRanks: 2,
};

export const pingpongSemantics: OperationSemantics<PingPongArgs> = {
  operation: 'pingpong',
  setup(rank: Rank, call): PingPongArgs {
    if (rank.size < 2) throw new Error('pingpong needs at least 2 ranks');
    return { send: range(rank.alloc('send', call.bytes)), recv: range(rank.alloc('recv', call.bytes)) };
  },
  fill(rank: Rank, { send, recv }: PingPongArgs) {
    fillFresh(send, source(rank.id, 'send'));
    fillUninitialised(recv);
  },
  verify(args: PingPongArgs[]) {
    for (const [r, from] of [
      [0, 1],
      [1, 0],
    ]) {
      const expected = Content.fresh(args[r].recv.bytes, source(from, 'send'));
      if (!args[r].recv.buf.content.equals(expected)) {
        throw new Error(
          `pingpong: rank ${r} received ${args[r].recv.buf.content.describe()}, expected ${source(from, 'send')}`,
        );
      }
    }
  },
  // A round trip, reported as its half (IMB PingPong's t/2).
  transfersPerCall: 2,
};

export function* pingPong(rank: Rank, { send, recv }: PingPongArgs): Program<void> {
  if (rank.id === 0) {
    yield* rank.p2p.send(1, send);
    yield* rank.p2p.recv(1, recv);
  } else if (rank.id === 1) {
    yield* rank.p2p.recv(0, recv);
    yield* rank.p2p.send(0, send);
  }
}

export const pingpongShm = defineAlgorithm({
  name: 'pingpong:shm',
  operation: 'pingpong',
  description:
    'point-to-point through rank.p2p: Nemesis or sm BTL double copy, single copy above a threshold (params shm, single, singleThreshold)',
  params: [],
  program: pingPong,
});
