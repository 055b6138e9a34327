// Ping-ping (IMB PingPing): ranks 0 and 1 both start sending to each other at once, then receive,
// then wait for their send. The reported time is one iteration's span, whose inverse times the
// size is the per-process throughput IMB prints: under this contention a single copy keeps its
// throughput where the double copy's drops (Goglin & Moreaud, JPDC 2013, §5.2, Fig. 10(b)).
import type { OperationInfo } from '../operations.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import type { Program, Range, Rank } from '../../sim/node/rank-api.ts';
import type { OperationCall, OperationSemantics } from '../semantics.ts';
import { checkSize, fillFresh, fillUninitialised, source } from '../fill.ts';
import { expectHolds } from './buffers.ts';
import { overTransports, type WithParams } from './over-transports.ts';
import type { Transport } from './transport.ts';

export interface PingPingArgs extends WithParams {
  send: Range;
  recv: Range;
}

export const pingpingOperation: OperationInfo = {
  name: 'pingping',
  description: 'ranks 0 and 1 send to each other at once, then receive; one iteration',
  rooted: false,
  minRanks: 2,
};

export const pingpingSemantics: OperationSemantics<PingPingArgs> = {
  operation: 'pingping',
  setup(rank: Rank, call: OperationCall): PingPingArgs {
    if (rank.size < 2) throw new Error('pingping needs at least 2 ranks');
    const bytes = checkSize('pingping', call.bytes);
    return {
      send: range(rank.alloc('send', bytes)),
      recv: range(rank.alloc('recv', bytes)),
      params: { ...call.params },
    };
  },
  fill(rank: Rank, args: PingPingArgs) {
    fillFresh(args.send, source(rank.id, 'send'));
    fillUninitialised(args.recv);
  },
  verify(args: PingPingArgs[], call: OperationCall) {
    for (const r of [0, 1]) {
      expectHolds(`pingping: rank ${r} send`, args[r].send, Content.fresh(call.bytes, source(r, 'send')));
      expectHolds(`pingping: rank ${r} recv`, args[r].recv, Content.fresh(call.bytes, source(1 - r, 'send')));
    }
  },
};

export function* pingPing(t: Transport, rank: Rank, { send, recv }: PingPingArgs): Program<void> {
  if (rank.id > 1) return;
  const peer = 1 - rank.id;
  const sent = yield* t.isend(rank, peer, send);
  yield* t.recv(rank, peer, recv);
  yield* sent();
}

export const pingpingAlgorithms = overTransports('pingping', 'ping-ping', pingPing);
