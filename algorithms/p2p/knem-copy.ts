// The KNEM copy-strategy benchmark (Goglin & Moreaud, JPDC 2013, §5.3, Fig. 11): a ping-pong in
// which every transfer uses one of KNEM's four strategies.
//   inline-read  : the sender declares a read region of its buffer and sends the cookie; the
//                  receiver pulls it into its own buffer with an inline copy (receiver reading).
//   inline-write : the receiver declares a write region of its buffer and sends the cookie; the
//                  sender pushes its buffer into it with an inline copy (sender writing).
//   region-read  : as inline-read, but the receiver declares its own buffer as a region too and
//                  copies region to region.
//   region-write : as inline-write, but the sender declares its own buffer as a region too and
//                  copies region to region.
// Every region is single use, declared for one message. The copy mode is the `mode` parameter.
// Each rank sends from one buffer and receives into another, as NetPIPE does (s_buff and r_buff):
// the pong's destination is not the buffer the ping just read.
import { defineAlgorithm, type ParamInfo, type ParamValue } from '../algorithm.ts';
import type { OperationInfo } from '../operations.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import type { OffloadMode, Program, Range, Rank } from '../../sim/node/rank-api.ts';
import type { OperationCall, OperationSemantics } from '../semantics.ts';
import { checkSize, fillFresh, fillUninitialised, source } from '../fill.ts';
import { expectHolds } from './buffers.ts';
import type { WithParams } from './over-transports.ts';
import { expectControl, type ControlMessage } from './rendezvous.ts';
import { modeOf, modeParam, usesOfTransport } from './transport.ts';

export type KnemStrategy = 'inline-read' | 'inline-write' | 'region-read' | 'region-write';
export const KNEM_STRATEGIES: readonly KnemStrategy[] = ['inline-read', 'inline-write', 'region-read', 'region-write'];

export interface KnemCopyArgs extends WithParams {
  send: Range;
  recv: Range;
}

export const knemcopyOperation: OperationInfo = {
  name: 'knemcopy',
  description: 'KNEM ping-pong with one copy strategy for every transfer; half the round trip',
  rooted: false,
  minRanks: 2,
};

export const knemcopySemantics: OperationSemantics<KnemCopyArgs> = {
  operation: 'knemcopy',
  setup(rank: Rank, call: OperationCall): KnemCopyArgs {
    if (rank.size < 2) throw new Error('knemcopy needs at least 2 ranks');
    const bytes = checkSize('knemcopy', call.bytes);
    return {
      send: range(rank.alloc('send', bytes)),
      recv: range(rank.alloc('recv', bytes)),
      params: { ...call.params },
    };
  },
  fill(rank: Rank, { send, recv }: KnemCopyArgs) {
    fillFresh(send, source(rank.id, 'msg'));
    fillUninitialised(recv);
  },
  verify(args: KnemCopyArgs[], call: OperationCall) {
    for (const [r, from] of [
      [0, 1],
      [1, 0],
    ])
      expectHolds(`knemcopy: rank ${r}`, args[r].recv, Content.fresh(call.bytes, source(from, 'msg')));
  },
  // A round trip, reported as its half (IMB PingPong's t/2).
  transfersPerCall: 2,
};

const readsOnReceiver = (s: KnemStrategy) => s === 'inline-read' || s === 'region-read';
const usesRegionCopy = (s: KnemStrategy) => s === 'region-read' || s === 'region-write';

/** One message of `data` from this rank to `to` with `strategy`. */
export function* knemSend(
  rank: Rank,
  strategy: KnemStrategy,
  mode: OffloadMode,
  to: number,
  data: Range,
): Program<void> {
  if (readsOnReceiver(strategy)) {
    const cookie = yield* rank.knem.createRegion(data, { read: true, singleUse: true });
    yield* rank.control.send(to, {
      kind: 'rts',
      descriptor: { mechanism: 'knem', bytes: data.bytes, cookie },
    } satisfies ControlMessage);
    yield* expectControl(rank, to, 'done');
    return;
  }
  const { cookie, bytes } = yield* expectControl(rank, to, 'cts');
  if (bytes !== data.bytes)
    throw new Error(`rank ${rank.id}: sending ${data.bytes} bytes to rank ${to}, which offers ${bytes}`);
  if (usesRegionCopy(strategy)) {
    const mine = yield* rank.knem.createRegion(data, { read: true, singleUse: true });
    const handle = yield* rank.knem.regionCopy({
      src: mine,
      srcOffset: 0,
      dst: cookie,
      dstOffset: 0,
      bytes: data.bytes,
      mode,
    });
    yield* handle.wait();
  } else {
    const handle = yield* rank.knem.inlineCopy({ cookie, offset: 0, local: data, direction: 'write', mode });
    yield* handle.wait();
  }
  yield* rank.control.send(to, { kind: 'done' } satisfies ControlMessage);
}

/** The matching receive into `into` from `from`. */
export function* knemRecv(
  rank: Rank,
  strategy: KnemStrategy,
  mode: OffloadMode,
  from: number,
  into: Range,
): Program<void> {
  if (!readsOnReceiver(strategy)) {
    const cookie = yield* rank.knem.createRegion(into, { write: true, singleUse: true });
    yield* rank.control.send(from, { kind: 'cts', cookie, bytes: into.bytes } satisfies ControlMessage);
    yield* expectControl(rank, from, 'done');
    return;
  }
  const { descriptor } = yield* expectControl(rank, from, 'rts');
  if (descriptor.bytes !== into.bytes)
    throw new Error(
      `rank ${rank.id}: receive of ${into.bytes} bytes from rank ${from}, which sent ${descriptor.bytes}`,
    );
  if (descriptor.mechanism !== 'knem')
    throw new Error(
      `rank ${rank.id}: a KNEM copy strategy received a ${descriptor.mechanism} descriptor from rank ${from}`,
    );
  const theirs = descriptor.cookie;
  if (usesRegionCopy(strategy)) {
    const mine = yield* rank.knem.createRegion(into, { write: true, singleUse: true });
    const handle = yield* rank.knem.regionCopy({
      src: theirs,
      srcOffset: 0,
      dst: mine,
      dstOffset: 0,
      bytes: into.bytes,
      mode,
    });
    yield* handle.wait();
  } else {
    const handle = yield* rank.knem.inlineCopy({ cookie: theirs, offset: 0, local: into, direction: 'read', mode });
    yield* handle.wait();
  }
  yield* rank.control.send(from, { kind: 'done' } satisfies ControlMessage);
}

/** Whether the benchmark uses its buffers around each transfer, as the paper's does: "this pingpong
 *  therefore initializes the source buffer before sending and reads it after receiving" (Goglin &
 *  Moreaud 2013, §5.3), inside the timing ("it explains why the overall throughput is 2-3 times
 *  lower than in other benchmarks", its footnote 17). Off by default: other KNEM benchmarks, such as
 *  seed 000's, do not say that they touch their buffers. */
export const touchParam: ParamInfo = {
  name: 'touch',
  kind: 'boolean',
  default: false,
  description:
    'write the source before each send and read the destination after each receive, inside the timing (Goglin & Moreaud 2013, §5.3)',
};

function touchOf(params: Record<string, ParamValue>): boolean {
  const touch = params.touch ?? false;
  if (typeof touch !== 'boolean') throw new Error(`params.touch must be true or false, got ${JSON.stringify(touch)}`);
  return touch;
}

export function knemCopyPingPong(strategy: KnemStrategy) {
  return function* (rank: Rank, { send, recv, params }: KnemCopyArgs): Program<void> {
    const mode = modeOf(params);
    const touch = touchOf(params);
    if (rank.id > 1) return;
    const peer = 1 - rank.id;
    function* ping(): Program<void> {
      if (touch) yield* rank.pass(send, 'write');
      yield* knemSend(rank, strategy, mode, peer, send);
    }
    function* pong(): Program<void> {
      yield* knemRecv(rank, strategy, mode, peer, recv);
      if (touch) yield* rank.pass(recv, 'read');
    }
    if (rank.id === 0) {
      yield* ping();
      yield* pong();
    } else {
      yield* pong();
      yield* ping();
    }
  };
}

const DESCRIBE: Record<KnemStrategy, string> = {
  'inline-read': "receiver reads the sender's region with an inline copy",
  'inline-write': "sender writes into the receiver's region with an inline copy",
  'region-read': "receiver copies the sender's region into its own region",
  'region-write': "sender copies its own region into the receiver's region",
};

export const knemcopyAlgorithms = KNEM_STRATEGIES.map((strategy) =>
  defineAlgorithm({
    name: `knemcopy:${strategy}`,
    operation: 'knemcopy',
    description: `KNEM ping-pong, ${DESCRIBE[strategy]} (param mode: sync, thread, ioat; touch: use the buffers)`,
    params: [modeParam, touchParam],
    ...usesOfTransport('knem'),
    program: knemCopyPingPong(strategy),
  }),
);
