// MPICH2 Nemesis shared-memory transport (Buntinas, Mercier & Gropp; seed 003 slides 4-9; seed 004
// §4.4). Each process owns one lock-free receive queue and one free queue of cells; each ordered
// pair has a one-cell fastbox the sender tries first. Eager messages (up to a cell's data less ch3's
// headers, just under 64 KiB, by default; the run's `eagerLimit`) are copied into a fastbox or cells
// and out again; larger ones take the shared-memory LMT: RTS, CTS, then a pipeline through a
// per-pair copy buffer of eight 32 KiB slots (`lmtSlots`, `lmtChunk`), the sender filling slots
// ahead of the receiver draining them, 16 KiB at a time for messages up to 128 KiB (MPICH2
// mpid_nem_lmt_shm.c). The copy buffer belongs to the pair of processes, not to a direction: one LMT
// at a time moves through it, whichever way it goes (`lmtBuffer: direction` gives each direction
// its own instead, as the native backend's channel). With the LMT off (`lmt: false`) they take
// ch3's generic rendezvous: RTS, CTS, then the body through cells.
//
// Cells, fastboxes and copy buffers are real buffers of the node model: nobody owns them, their
// pages land where they are first written, and copies through them take cache space and memory
// bandwidth like any other. Synchronisation costs line transfers (lines.ts) between the cores.
import { Channel } from '../../engine/channel.ts';
import { Mutex } from '../../engine/mutex.ts';
import type { Program } from '../../engine/program.ts';
import { Semaphore } from '../../engine/semaphore.ts';
import { Signal } from '../../engine/signal.ts';
import { range, type Buffer, type Range } from '../../node/buffer.ts';
import type { World } from '../../node/world.ts';
import { lazily, RunState } from '../../node/run-state.ts';
import { nemesisCosts } from './costs.ts';
import { arrive, nextNotice, nextPacket, putNotice } from './delivery.ts';
import { LmtTrain, type Side } from './lmt-train.ts';
import { faultIn } from '../../node/first-touch.ts';
import { postPieces, unpackPieces } from './fragments.ts';
import { lineTransfer, QueueLines } from './lines.ts';
import {
  packetOf,
  payloadBytes,
  replyTo,
  traceKind,
  withKind,
  type Packet,
  type PacketHeader,
  type PacketKind,
} from './packet.ts';
import { step, traced, type DoubleCopy } from './transport.ts';

/** The calibration table with its sizes and switches open to the run's transport parameters. */
export type NemesisCosts = {
  readonly [K in keyof typeof nemesisCosts]: (typeof nemesisCosts)[K] extends number
    ? number
    : (typeof nemesisCosts)[K] extends boolean
      ? boolean
      : (typeof nemesisCosts)[K];
};

/** A process's cells: its free queue (it dequeues, receivers return cells) and its receive queue. */
interface Process {
  cells: Buffer;
  free: Channel<number>;
  freeLines: QueueLines;
  recvLines: QueueLines;
}

interface Fastbox {
  buf: Buffer;
  full: boolean;
  /** Core that last wrote the flag line. */
  flagCore: number;
}

interface CopyBuffer {
  buf: Buffer;
  /**
   * One LMT at a time per pair of processes, in either direction. MPICH2's copy buffer belongs to
   * the pair's virtual connection (`vc_ch->lmt_copy_buf`, one region both processes attach); a
   * transfer takes it when its first side claims it (`get_next_req`: a compare-and-swap of the
   * owner from NO_OWNER, the other side then follows the owner's choice) and the receiver frees it
   * once it has drained the last chunk (end of `lmt_shm_recv_progress`). The receiver, which
   * reaches the buffer first (it sends the CTS, then starts), takes it here, in the order the
   * receivers come. With a buffer per direction (`lmtBuffer: direction`) the sender takes it and
   * frees it once it has filled its last chunk, the next transfer's chunks following the last's.
   */
  inUse: Mutex;
  /** Whether the buffer is the pair's (`lmtBuffer: pair`) rather than one direction's. */
  perPair: boolean;
  /** The transfers holding the buffer, by id: a transfer's sender waits for its own. */
  granted: Map<number, Signal>;
  /** Per chunk slot: empty (1) or full (0). */
  empty: Semaphore[];
}

interface LmtChunk {
  slot: number;
  bytes: number;
}

/** Every process's cells and queues, and every pair's fastbox and LMT copy buffer, of one run. */
const NEMESIS = new RunState('nemesis', () => ({
  procs: new Map<number, Process>(),
  fastboxes: new Map<string, Fastbox>(),
  copyBuffers: new Map<string, CopyBuffer>(),
}));

/** The LMT copy buffers the run has made (one per pair of processes that needed one). */
export function nemesisCopyBuffers(world: World): string[] {
  return world.hasState(NEMESIS) ? [...world.stateOf(NEMESIS).copyBuffers.keys()] : [];
}

/** Process `rank`'s cells, free queue and receive queue, made on first use in the run. */
function procOf(world: World, costs: NemesisCosts, rank: number): Process {
  const { node } = world;
  return lazily(world.stateOf(NEMESIS).procs, rank, () => ({
    cells: node.allocate(`nemesis cells r${rank}`, costs.cellsPerProcess * costs.cellBytes, -1),
    free: prefilled(`nemesis free queue r${rank}`, costs.cellsPerProcess),
    freeLines: new QueueLines(node.topo, world.cores[rank], costs.cellsPerProcess),
    recvLines: new QueueLines(node.topo, world.cores[rank]),
  }));
}

function fastboxOf(world: World, costs: NemesisCosts, from: number, to: number): Fastbox {
  return lazily(world.stateOf(NEMESIS).fastboxes, `${from}>${to}`, () => ({
    buf: world.node.allocate(`nemesis fastbox ${from}>${to}`, costs.fastboxDataBytes, -1),
    full: false,
    flagCore: world.cores[to],
  }));
}

function copyBufferOf(world: World, costs: NemesisCosts, from: number, to: number): CopyBuffer {
  const perPair = costs.lmtBuffer === 'pair';
  const pair = perPair ? `${Math.min(from, to)}-${Math.max(from, to)}` : `${from}>${to}`;
  return lazily(world.stateOf(NEMESIS).copyBuffers, pair, () => ({
    buf: world.node.allocate(`nemesis lmt buffer ${pair}`, costs.lmtSlots * costs.lmtChunkBytes, -1),
    inUse: new Mutex(world.sim, `nemesis lmt buffer ${pair}`),
    perPair,
    granted: new Map(),
    empty: Array.from({ length: costs.lmtSlots }, (_, i) => new Semaphore(world.sim, `lmt slot ${i} ${pair}`, 1)),
  }));
}

/** The signal transfer `id` is given the pair's copy buffer by. */
function grantOf(ring: CopyBuffer, id: number): Signal {
  return lazily(ring.granted, id, () => new Signal(`nemesis lmt buffer for transfer ${id}`));
}

function* releaseFastbox(world: World, box: Fastbox, receiver: number): Program<void> {
  // The receiver clears the flag in the line it already holds; the sender pays to read it back.
  box.full = false;
  box.flagCore = world.cores[receiver];
}

/** The receiver dequeues the cell from its receive queue and returns it to the sender's free queue. */
function* returnCell(world: World, costs: NemesisCosts, sender: number, receiver: number, cell: number): Program<void> {
  const rc = world.cores[receiver];
  yield* step(world, receiver, 'queue', `dequeue<-${sender}`, procOf(world, costs, receiver).recvLines.dequeue());
  const owner = procOf(world, costs, sender);
  yield* step(world, receiver, 'queue', `return cell->${sender}`, owner.freeLines.enqueue(rc));
  world.sim.schedule(lineTransfer(world.node.topo, rc, world.cores[sender]), () => owner.free.put(cell));
}

export function createNemesis(world: World, me: number, costs: NemesisCosts = nemesisCosts): DoubleCopy {
  const { node } = world;
  const topo = node.topo;
  const core = world.cores[me];
  const coreOf = (rank: number) => world.cores[rank];

  const transport: DoubleCopy = {
    protocol: 'nemesis',
    eagerLimit: costs.eagerLimitBytes,

    capacity(kind: PacketKind): number {
      return kind === 'eager' || kind === 'frag' ? costs.cellDataBytes : 0;
    },

    *post(header: PacketHeader, data?: Range): Program<void> {
      const bytes = data?.bytes ?? 0;
      const to = header.to;
      if (bytes > transport.capacity(header.kind))
        throw new RangeError(`nemesis: ${bytes} bytes do not fit one ${header.kind} cell`);
      const kind = traceKind(header.kind);
      yield* step(world, me, kind, `post ${header.kind}->${to}`, costs.sendSideNs);
      const seen = lineTransfer(topo, core, coreOf(to));
      // The fastbox first, for a packet that carries a whole message: MPICH2 1.3.1's
      // MPID_nem_mpich2_send_header tries it for every header alone, MPID_nem_mpich2_sendv_header
      // when `*n_iov == 2` and the whole payload fits MPID_NEM_FBOX_DATALEN; the first cell of an
      // eager message larger than that, and MPID_nem_mpich2_sendv, which sends the rest of a
      // message that did not fit one packet, go straight to a cell (mpid_nem_inline.h). Reading the
      // fastbox's flag pulls the line from whoever wrote it last.
      if (header.kind !== 'frag' && (header.kind !== 'eager' || bytes === header.total)) {
        const box = fastboxOf(world, costs, me, to);
        const check = lineTransfer(topo, box.flagCore, core);
        const fits = bytes <= costs.fastboxDataBytes;
        // The copy-in does not wait for the flag's line: the core runs on past the branch on the
        // flag, predicted free, and issues the copy's loads and stores while the line is on its
        // way; they retire, and the flag's own store after them, once its value has come. So the
        // check costs what of its trip the copy does not cover (docs/model.md, Nemesis). A box
        // found full, or a message it cannot hold, pays the whole trip; the box is then taken if
        // the receiver freed it meanwhile, as the flag's value read at the line's arrival says.
        const seenAt = world.sim.now + check;
        if (box.full || !fits) yield* step(world, me, kind, `fastbox check->${to}`, check);
        if (!box.full && fits) {
          box.full = true;
          box.flagCore = core;
          const slot = range(box.buf, 0, bytes);
          if (data && bytes > 0) yield* node.copy(core, data, slot, { rank: me, label: `copy-in fastbox->${to}` });
          yield* step(world, me, kind, `fastbox check->${to}`, Math.max(0, seenAt - world.sim.now));
          arrive(
            world,
            packetOf(header, slot, () => releaseFastbox(world, box, to)),
            seen,
          );
          return;
        }
      }
      const mine = procOf(world, costs, me);
      const cell =
        mine.free.length > 0 ? yield* mine.free.get() : yield* traced(world, me, 'wait', 'free cell', mine.free.get());
      yield* step(world, me, kind, 'dequeue free cell', mine.freeLines.dequeue());
      const slot = range(mine.cells, cell * costs.cellBytes, bytes);
      if (data && bytes > 0) yield* node.copy(core, data, slot, { rank: me, label: `copy-in cell->${to}` });
      yield* step(world, me, kind, `enqueue->${to}`, procOf(world, costs, to).recvLines.enqueue(core));
      arrive(
        world,
        packetOf(header, slot, () => returnCell(world, costs, me, to, cell)),
        seen,
      );
    },

    *unpack(packet: Packet, into?: Range): Program<void> {
      const bytes = payloadBytes(packet);
      if ((into?.bytes ?? 0) !== bytes)
        throw new RangeError(`nemesis: unpacking ${bytes} bytes into ${into?.bytes ?? 0}`);
      yield* step(world, me, traceKind(packet.kind), `match ${packet.kind}<-${packet.from}`, costs.recvSideNs);
      if (packet.payload && into && bytes > 0)
        yield* node.copy(core, packet.payload, into, { rank: me, label: `copy-out <-${packet.from}` });
      yield* packet.release();
    },

    *sendLarge(header: PacketHeader, data: Range): Program<void> {
      const to = header.to;
      yield* transport.post(withKind(header, 'rts'));
      const cts = yield* traced(world, me, 'wait', `cts<-${to}`, nextPacket(world, header.id, me));
      yield* transport.unpack(cts);
      if (costs.lmt) yield* lmtPush(world, costs, me, header, data);
      else yield* postPieces(transport, header, data, 0, 'frag');
    },

    *recvLarge(rts: Packet, into: Range): Program<void> {
      yield* transport.unpack(rts);
      yield* transport.post(replyTo(rts, 'cts'));
      if (costs.lmt) yield* lmtPull(world, costs, rts, me, into);
      else yield* unpackPieces(world, transport, me, rts.id, rts.from, into, 0);
    },
  };

  return transport;
}

/** Each LMT transfer's pipeline state, shared by its two sides (lmt-train.ts), by transfer id. */
const LMT_TRAINS = new RunState('nemesis lmt trains', () => new Map<number, LmtTrain>());

function trainOf(world: World, costs: NemesisCosts, id: number, ring: CopyBuffer, bytes: number): LmtTrain {
  return lazily(
    world.stateOf(LMT_TRAINS),
    id,
    () =>
      new LmtTrain(
        world,
        {
          buf: ring.buf,
          empty: ring.empty,
          chunkBytes: lmtChunkOf(costs, bytes),
          slotBytes: costs.lmtChunkBytes,
          slots: costs.lmtSlots,
        },
        bytes,
      ),
  );
}

/** The pipeline's chunk for a message of `bytes`: MPICH2's lmt_shm_send_progress copies at most
 *  PIPELINE_MAX_SIZE at a time when the message is at most PIPELINE_THRESHOLD, else a whole slot. */
function lmtChunkOf(costs: NemesisCosts, bytes: number): number {
  return bytes <= costs.lmtPipelineThresholdBytes
    ? Math.min(costs.lmtSmallChunkBytes, costs.lmtChunkBytes)
    : costs.lmtChunkBytes;
}

/** LMT, sender side: the message through the pair's copy-buffer ring, one chunk per free slot. */
function* lmtPush(world: World, costs: NemesisCosts, me: number, header: PacketHeader, data: Range): Program<void> {
  const { node } = world;
  const topo = node.topo;
  const core = world.cores[me];
  const to = header.to;
  const coreOf = (rank: number) => world.cores[rank];
  const ring = copyBufferOf(world, costs, me, to);
  // Per pair the receiver takes the buffer for this transfer and the sender follows (get_next_req).
  const take = ring.perPair ? grantOf(ring, header.id).wait() : ring.inUse.lock();
  yield* traced(world, me, 'wait', `lmt buffer->${to}`, take);
  const train = trainOf(world, costs, header.id, ring, data.bytes);
  train.joinSender({ rank: me, core, user: data, label: `lmt copy-in ->${to}` });
  while (train.next[0] < train.chunks) {
    const slot = train.slotOf(train.next[0]);
    const empty = ring.empty[slot];
    if (empty.available > 0) yield* empty.acquire();
    else yield* train.step(0, 'wait', `lmt slot ${slot}->${to}`, empty.acquire(), 'slot');
    const skip = train.boundary(0);
    if (skip > 0) yield* world.sim.sleep(skip);
    const j = train.next[0]++;
    const bytes = train.bytesOf(j, data.bytes);
    yield* node.onRankThread(me, lazyCopy(world, train, 0, j, me, core));
    // Setting the slot's flag: the polling receiver sees it one line transfer later.
    const chunk: LmtChunk = { slot, bytes };
    train.timer(lineTransfer(topo, core, coreOf(to)), 'notice', () => {
      train.noticeDelivered();
      putNotice(world, header.id, to, 'lmt', chunk);
    });
  }
  if (!ring.perPair) ring.inUse.unlock();
}

/** LMT, receiver side: each chunk copied out of the ring as its flag is seen, the slot then freed. */
function* lmtPull(world: World, costs: NemesisCosts, rts: Packet, me: number, into: Range): Program<void> {
  const { node } = world;
  const topo = node.topo;
  const core = world.cores[me];
  const from = rts.from;
  const coreOf = (rank: number) => world.cores[rank];
  const ring = copyBufferOf(world, costs, from, me);
  if (ring.perPair) {
    yield* traced(world, me, 'wait', `lmt buffer<-${from}`, ring.inUse.lock());
    grantOf(ring, rts.id).fire();
  }
  const train = trainOf(world, costs, rts.id, ring, into.bytes);
  train.joinReceiver({ rank: me, core, user: into, label: `lmt copy-out <-${from}` });
  while (train.next[1] < train.chunks) {
    const chunk = (yield* train.step(
      1,
      'poll',
      `lmt<-${from}`,
      nextNotice(world, rts.id, me, 'lmt'),
      'notice',
    )) as LmtChunk;
    train.noticeTaken();
    const skip = train.boundary(1);
    if (skip > 0) yield* world.sim.sleep(skip);
    const j = train.next[1]++;
    if (train.slotOf(j) !== chunk.slot || train.bytesOf(j, into.bytes) !== chunk.bytes)
      throw new Error(`rank ${me}: LMT chunk ${j} from rank ${from} is not the one flagged`);
    yield* node.onRankThread(me, lazyCopy(world, train, 1, j, me, core));
    // Clearing the flag: the sender sees the slot empty one line transfer later.
    const empty = ring.empty[chunk.slot];
    train.timer(lineTransfer(topo, core, coreOf(from)), 'release', () => empty.release());
  }
  world.stateOf(LMT_TRAINS).delete(rts.id);
  if (ring.perPair) {
    // Drained: the buffer is free for the pair's next transfer, either way (lmt_shm_recv_progress).
    ring.granted.delete(rts.id);
    ring.inUse.unlock();
  }
}

/** Chunk `j`'s copy by `side`, run on its rank's thread: its absent pages faulted in first (the
 *  copy's source first, as Node.copy does), then prepared only now, against the caches as they are
 *  once the thread is free. */
function* lazyCopy(world: World, train: LmtTrain, side: Side, j: number, rank: number, core: number): Program<void> {
  const { node } = world;
  if (node.pages.pending) {
    const { user, slot } = train.ranges(side, j);
    yield* faultIn(node, core, side === 0 ? [user, slot] : [slot, user], rank);
  }
  yield* train.copy(side, train.prepare(side, j));
}

function prefilled(name: string, count: number): Channel<number> {
  const ch = new Channel<number>(name);
  for (let i = 0; i < count; i++) ch.put(i);
  return ch;
}
