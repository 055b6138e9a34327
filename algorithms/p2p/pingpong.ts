// Ping-pong between ranks 0 and 1 (OSU latency / IMB PingPong): rank 0 sends, rank 1 receives and
// sends the same bytes back. Reported time is half the round trip, as those benchmarks report it.
import type { Program, Range, Rank } from '../../sim/node/rank-api.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { registerAlgorithm, registerOperation } from '../registry.ts';
import { registerSemantics } from '../semantics.ts';

export interface PingPongArgs {
  message: Range;
}

registerOperation({ name: 'pingpong', description: 'rank 0 sends to rank 1, which sends it back; half the round trip', rooted: false });

registerSemantics({
  operation: 'pingpong',
  setup(rank: Rank, call): PingPongArgs {
    if (rank.size < 2) throw new Error('pingpong needs at least 2 ranks');
    return { message: range(rank.alloc('msg', call.bytes)) };
  },
  fill(rank: Rank, { message }: PingPongArgs, call) {
    message.buf.content = rank.id === 0 ? Content.fresh(call.bytes, 'r0.msg') : Content.uninitialised(call.bytes);
  },
  verify(args: PingPongArgs[]) {
    for (const r of [0, 1]) {
      const expected = Content.fresh(args[r].message.bytes, 'r0.msg');
      if (!args[r].message.buf.content.equals(expected)) {
        throw new Error(`pingpong: rank ${r} holds ${args[r].message.buf.content.describe()}, expected r0.msg`);
      }
    }
  },
  reportTime: (span) => span / 2,
});

export function* pingPong(rank: Rank, { message }: PingPongArgs): Program<void> {
  if (rank.id === 0) {
    yield* rank.p2p.send(1, message);
    yield* rank.p2p.recv(1, message);
  } else if (rank.id === 1) {
    yield* rank.p2p.recv(0, message);
    yield* rank.p2p.send(0, message);
  }
}

registerAlgorithm({
  name: 'pingpong:shm',
  operation: 'pingpong',
  description: 'point-to-point through rank.p2p: Nemesis or sm BTL double copy, single copy above a threshold (params shm, single, singleThreshold)',
  params: [],
  program: pingPong,
});
