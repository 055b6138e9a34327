// Single-copy transfers the way MPI's rendezvous does them (Goglin & Moreaud, JPDC 2013, §4.4, the
// LMT "Get" model), but calling the rank's kernel mechanisms directly: the sender prepares its
// buffer and sends a descriptor in a ready-to-send control message, the receiver copies straight
// from the sender's buffer and answers "done", which lets the sender reuse its buffer.
//   KNEM  : a read region (single use for one message); the cookie travels; the receiver's inline
//           copy reads it.
//   CMA   : the sender's range travels; the receiver calls process_vm_readv.
//   XPMEM : the sender's buffer is exposed once (segid kept); the receiver attaches, copies, detaches.
//   LiMIC : the sender's tx descriptor travels; the receiver's rx copies.
import type { KnemCookie, OffloadMode, Program, Range, Rank } from '../../sim/node/rank-api.ts';
import type { SingleCopyDescriptor, SingleCopyMechanism } from '../../sim/node/single-copy-descriptor.ts';
import { exposedSegment } from '../xpmem-segment.ts';

export type Mechanism = SingleCopyMechanism;

/** What the sender's side has prepared for readers: sent as is in the ready-to-send message. */
export type Descriptor = SingleCopyDescriptor;

export interface RendezvousOptions {
  /** KNEM copy offload: synchronous, a kernel thread, or the I/OAT DMA engine. */
  mode?: OffloadMode;
  /** KNEM: whether one region serves several readers (one-to-all) or is consumed by the first. */
  reusable?: boolean;
}

/** Sender side, before the ready-to-send: makes `data` reachable by `mechanism`. */
export function* expose(
  rank: Rank,
  mechanism: Mechanism,
  data: Range,
  opts: RendezvousOptions = {},
): Program<Descriptor> {
  switch (mechanism) {
    case 'knem': {
      const cookie = yield* rank.knem.createRegion(data, { read: true, singleUse: !opts.reusable });
      return { mechanism, bytes: data.bytes, cookie };
    }
    case 'cma':
      return { mechanism, bytes: data.bytes, remote: data };
    case 'xpmem': {
      const segid = yield* exposedSegment(rank, data.buf);
      return { mechanism, bytes: data.bytes, segid, offset: data.offset };
    }
    case 'limic':
      return { mechanism, bytes: data.bytes, descriptor: yield* rank.limic.txInit(data) };
  }
}

/** Sender side, after every reader is done: releases what `expose` made (a reusable KNEM region). */
export function* release(rank: Rank, d: Descriptor, opts: RendezvousOptions = {}): Program<void> {
  if (d.mechanism === 'knem' && opts.reusable) yield* rank.knem.destroyRegion(d.cookie);
}

/** Receiver side: copies the exposed bytes of rank `from` into `into` (exactly `d.bytes` long). */
export function* pull(
  rank: Rank,
  from: number,
  d: Descriptor,
  into: Range,
  opts: RendezvousOptions = {},
): Program<void> {
  if (into.bytes !== d.bytes)
    throw new Error(`rank ${rank.id}: receive of ${into.bytes} bytes from rank ${from}, which exposed ${d.bytes}`);
  switch (d.mechanism) {
    case 'knem': {
      const handle = yield* rank.knem.inlineCopy({
        cookie: d.cookie,
        offset: 0,
        local: into,
        direction: 'read',
        mode: opts.mode,
      });
      yield* handle.wait();
      return;
    }
    case 'cma':
      yield* rank.cma.readv(from, into, d.remote);
      return;
    case 'xpmem': {
      const view = yield* rank.xpmem.attach(from, d.segid, d.offset, d.bytes);
      if (d.bytes > 0) yield* rank.copy(view, into, `xpmem copy <-${from}`);
      yield* rank.xpmem.detach(view);
      return;
    }
    case 'limic':
      yield* rank.limic.rx(d.descriptor, into);
      return;
  }
}

/** The control messages of the protocol; each is checked on arrival so a mismatched pairing of
 *  sends and receives in an algorithm fails loudly instead of copying the wrong buffer. */
export type ControlMessage =
  { kind: 'rts'; descriptor: Descriptor } | { kind: 'done' } | { kind: 'cts'; cookie: KnemCookie; bytes: number };

export function* expectControl<K extends ControlMessage['kind']>(
  rank: Rank,
  from: number,
  kind: K,
): Program<Extract<ControlMessage, { kind: K }>> {
  const msg = (yield* rank.control.recv(from)) as ControlMessage | undefined;
  if (!msg || msg.kind !== kind) {
    throw new Error(
      `rank ${rank.id}: expected a '${kind}' control message from rank ${from}, got ${msg ? `'${msg.kind}'` : String(msg)}`,
    );
  }
  return msg as Extract<ControlMessage, { kind: K }>;
}

/** Starts a send: exposes `data` and sends the ready-to-send; the returned program waits for
 *  the receiver's "done", after which `data` may be reused. */
export function* rendezvousIsend(
  rank: Rank,
  mechanism: Mechanism,
  to: number,
  data: Range,
  opts: RendezvousOptions = {},
): Program<() => Program<void>> {
  const descriptor = yield* expose(rank, mechanism, data, opts);
  yield* rank.control.send(to, { kind: 'rts', descriptor } satisfies ControlMessage);
  return function* (): Program<void> {
    yield* expectControl(rank, to, 'done');
  };
}

export function* rendezvousRecv(rank: Rank, from: number, into: Range, opts: RendezvousOptions = {}): Program<void> {
  const { descriptor } = yield* expectControl(rank, from, 'rts');
  yield* pull(rank, from, descriptor, into, opts);
  yield* rank.control.send(from, { kind: 'done' } satisfies ControlMessage);
}
