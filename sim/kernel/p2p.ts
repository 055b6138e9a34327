// Two-sided point-to-point between ranks of one node, as an MPI library's shared-memory channel
// does it: the double-copy transport (MPICH2 Nemesis or Open MPI's sm BTL) carries every message
// up to its eager limit and, above it, its own large-message protocol; optionally, the messages
// that would take the rendezvous (or those from a given size up) go by a single-copy kernel
// mechanism (KNEM, CMA, XPMEM, LiMIC) with the transport carrying only the rendezvous' RTS and DONE. The receiver learns the path from the
// message's first packet, as a real receiver does from the packet type.
import { wait, type Program } from '../engine/program.ts';
import type { Signal } from '../engine/signal.ts';
import { InputError, didYouMean, type InputLocation } from '../../common/input-error.ts';
import { subRange, type Range } from '../node/buffer.ts';
import type { PointToPoint } from '../node/rank-api.ts';
import type { World } from '../node/world.ts';
import {
  LMT_BUFFERS,
  nemesisCosts,
  singleCopyRendezvous,
  smBtlCosts,
  smParamDefaults,
  type LmtBuffer,
} from './shm/costs.ts';
import { matcherOf, newMessage } from './shm/delivery.ts';
import { recvEager, sendEager } from './shm/fragments.ts';
import { createNemesis, type NemesisCosts } from './shm/nemesis.ts';
import {
  messageHeader,
  SHM_PROTOCOLS,
  SINGLE_COPY,
  type MessagePath,
  type Packet,
  type PacketHeader,
  type ShmProtocol,
  type SingleCopy,
} from './shm/packet.ts';
import { recvSingleCopy, sendSingleCopy, type SingleCopyMechanisms } from './shm/single-copy.ts';
import { createSmBtl, type SmBtlCosts } from './shm/sm-btl.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { checkKernelParam } from './kernel-costs.ts';
import { SM_FRAGMENT_MIN_BYTES } from './transport-params.ts';
import { traced, type DoubleCopy } from './shm/transport.ts';
import { createBetweenHosts } from './net/between-hosts.ts';
import { RAIL_POLICIES, type RailOptions } from './net/rails.ts';

export type { ShmProtocol, SingleCopy } from './shm/packet.ts';
export type { SingleCopyMechanisms } from './shm/single-copy.ts';

export interface PointToPointOptions {
  /** Double-copy protocol; default 'nemesis'. */
  shm?: ShmProtocol;
  /** Single-copy mechanism for large messages; default 'none'. */
  single?: SingleCopy;
  /** Messages of at least this many bytes use `single`; default 'rendezvous': every message above
   *  the double copy's eager limit, where the libraries switch (singleCopyRendezvous in costs.ts). */
  singleThreshold?: number | typeof singleCopyRendezvous;
  /** The rank's mechanism objects; required when `single` is not 'none'. */
  mechanisms?: SingleCopyMechanisms;
  /** Nemesis only: largest eager message (MPIR_CVAR_NEMESIS_SHM_EAGER_MAX_SZ); default 64 KiB. */
  eagerLimit?: number;
  /** Nemesis only: large messages through the shared-memory LMT (true) or ch3's rendezvous through cells. */
  lmt?: boolean;
  /** Nemesis only: slot of the LMT copy buffer, the pipeline's chunk above 128 KiB; default 32 KiB. */
  lmtChunk?: number;
  /** Nemesis only: slots of the LMT copy buffer (MPICH2's NUM_BUFS); default 8. */
  lmtSlots?: number;
  /** Nemesis only: one LMT copy buffer per pair of processes (MPICH2) or per direction; default 'pair'. */
  lmtBuffer?: LmtBuffer;
  /** Nemesis only: the library's work per packet side (ns); default the software-costs figure. */
  nemesisSideNs?: number;
  /** sm BTL only: max fragment of the rendezvous pipeline (btl_sm_max_send_size); default 32 KiB. */
  smFragment?: number;
  /** sm BTL only: fragments of a copy-in/out rendezvous in flight (pml_ob1_send_pipeline_depth); default 3. */
  smPipelineDepth?: number;
  /** sm BTL only: largest eager fragment (data and match header) sent through the vader BTL's
   *  per-peer fast box; default 0, none (Open MPI 1.x). */
  smFastBox?: number;
  /** How messages to ranks on other hosts are split across the NICs; default by NIC bandwidth. */
  rails?: Partial<RailOptions>;
}

/** The options that configure Nemesis alone: given with the sm BTL, they would change nothing. */
export const NEMESIS_OPTIONS = ['eagerLimit', 'lmt', 'lmtChunk', 'lmtSlots', 'lmtBuffer', 'nemesisSideNs'] as const;

/** The options that configure the sm BTL alone: given with Nemesis, they would change nothing. */
export const SM_OPTIONS = ['smFragment', 'smPipelineDepth', 'smFastBox'] as const;

export function createPointToPoint(world: World, me: number, options: PointToPointOptions = {}): PointToPoint {
  const protocol = options.shm ?? 'nemesis';
  const single = options.single ?? 'none';
  const threshold = options.singleThreshold ?? singleCopyRendezvous;
  if (!SHM_PROTOCOLS.includes(protocol))
    throw new RangeError(`point-to-point: unknown shm protocol ${String(protocol)}`);
  if (!SINGLE_COPY.includes(single))
    throw new RangeError(`point-to-point: unknown single-copy mechanism ${String(single)}`);
  if (options.lmtBuffer !== undefined && !LMT_BUFFERS.includes(options.lmtBuffer))
    throw new RangeError(`point-to-point: unknown lmtBuffer ${String(options.lmtBuffer)}`);
  if (options.nemesisSideNs !== undefined && !(options.nemesisSideNs >= 0 && Number.isFinite(options.nemesisSideNs)))
    throw new RangeError(
      `point-to-point: nemesisSideNs must be a number of ns of at least 0, got ${options.nemesisSideNs}`,
    );
  if (threshold !== singleCopyRendezvous && !(Number.isInteger(threshold) && threshold >= 0))
    throw new RangeError(
      `point-to-point: singleThreshold must be a non-negative integer or 'rendezvous', got ${threshold}`,
    );
  for (const name of ['lmtChunk', 'lmtSlots', 'smPipelineDepth'] as const) {
    const v = options[name];
    if (v !== undefined && !(Number.isInteger(v) && v >= 1))
      throw new RangeError(`point-to-point: ${name} must be a whole number of at least 1, got ${v}`);
  }
  const box = options.smFastBox;
  if (box !== undefined && !(Number.isInteger(box) && box >= 0 && box <= smBtlCosts.fastBoxRingBytes))
    throw new RangeError(
      `point-to-point: smFastBox must be a whole number of bytes from 0 to ${smBtlCosts.fastBoxRingBytes}, got ${box}`,
    );
  if (single !== 'none' && !options.mechanisms)
    throw new Error(`point-to-point over ${single} needs the rank's mechanism objects`);
  const mechanisms = options.mechanisms;
  for (const name of NEMESIS_OPTIONS)
    if (protocol === 'sm' && options[name] !== undefined)
      throw new RangeError(`point-to-point: ${name} configures Nemesis, not the sm BTL`);
  for (const name of SM_OPTIONS)
    if (protocol !== 'sm' && options[name] !== undefined)
      throw new RangeError(`point-to-point: ${name} configures the sm BTL, not Nemesis`);
  const transport: DoubleCopy =
    protocol === 'sm'
      ? createSmBtl(world, me, smCostsFor(world.node.spec, options))
      : createNemesis(world, me, nemesisCostsFor(options));
  // Ranks on other hosts of a several-host machine are reached through the NICs.
  const between =
    (world.node.spec.hosts ?? 1) > 1
      ? createBetweenHosts(world, me, { policy: 'throughput', share: 0.5, ...options.rails })
      : undefined;

  function checkPeer(peer: number, what: string): void {
    if (!Number.isInteger(peer) || peer < 0 || peer >= world.size)
      throw new RangeError(`rank ${me}: ${what} rank ${peer} outside 0..${world.size - 1}`);
  }

  function pathFor(bytes: number): MessagePath {
    // A library whose kernel lacks the module keeps to the double copy, as Open MPI and MPICH do
    // when /dev/knem or the syscall is missing.
    const eager = bytes <= transport.eagerLimit;
    const beyond = threshold === singleCopyRendezvous ? !eager : bytes >= threshold;
    if (single !== 'none' && bytes > 0 && beyond && world.node.spec.kernel.mechanisms[single]) return single;
    return eager ? 'eager' : 'large';
  }

  /** Fixes the message's order and path now, at call time. */
  function begin(to: number, data: Range, tag: number): PacketHeader {
    checkPeer(to, 'send to');
    const { seq, id } = newMessage(world, me, to);
    const path = pathFor(data.bytes);
    return messageHeader(path === 'eager' ? 'eager' : 'rts', me, to, tag, seq, id, data.bytes, path);
  }

  function* sendBody(header: PacketHeader, data: Range): Program<void> {
    if (header.path === 'eager') yield* sendEager(transport, header, data);
    else if (header.path === 'large') yield* transport.sendLarge(header, data);
    else yield* sendSingleCopy(world, transport, me, mechanisms!, header, data);
  }

  function post(from: number, tag: number): Signal<Packet> {
    checkPeer(from, 'receive from');
    return matcherOf(world, me).post(from, tag);
  }

  function* recvBody(from: number, into: Range, posted: Signal<Packet>): Program<void> {
    const first = posted.fired ? posted.value! : yield* traced(world, me, 'poll', `recv<-${from}`, posted.wait());
    if (first.total > into.bytes) {
      throw new RangeError(
        `rank ${me} posted a receive of ${into.bytes} bytes from rank ${from} (tag ${first.tag}), which sent ${first.total}`,
      );
    }
    const target = subRange(into, 0, first.total);
    if (first.path === 'eager') yield* recvEager(world, transport, me, first, target);
    else if (first.path === 'large') yield* transport.recvLarge(first, target);
    else yield* recvSingleCopy(world, transport, me, mechanisms!, first, target);
  }

  /** The send as a program; its order among this rank's messages is fixed now, at call time. */
  function sending(to: number, data: Range, tag: number): Program<void> {
    checkPeer(to, 'send to');
    if (between?.remote(to)) return between.send(to, data, tag);
    return sendBody(begin(to, data, tag), data);
  }

  /** The receive as a program, posted now. */
  function receiving(from: number, into: Range, tag: number): Program<void> {
    checkPeer(from, 'receive from');
    if (between?.remote(from)) return between.recv(from, into, tag);
    return recvBody(from, into, post(from, tag));
  }

  return {
    *send(to: number, data: Range, tag = 0): Program<void> {
      yield* sending(to, data, tag);
    },
    *recv(from: number, into: Range, tag = 0): Program<void> {
      yield* receiving(from, into, tag);
    },
    *sendrecv(to: number, data: Range, from: number, into: Range, tag = 0): Program<void> {
      const outgoing = sending(to, data, tag);
      const incoming = receiving(from, into, tag);
      const sent = world.sim.spawn(`r${me} sendrecv->${to}`, outgoing);
      yield* incoming;
      yield* wait(sent);
    },
    *isend(to: number, data: Range, tag = 0) {
      const proc = world.sim.spawn(`r${me} isend->${to}`, sending(to, data, tag));
      return () => wait(proc);
    },
    *irecv(from: number, into: Range, tag = 0) {
      const proc = world.sim.spawn(`r${me} irecv<-${from}`, receiving(from, into, tag));
      return () => wait(proc);
    },
  };
}

/** Nemesis's calibration with the run's eager limit, LMT switch, LMT slot and slots, LMT buffer and
 *  library work per packet side over the defaults. */
function nemesisCostsFor(options: PointToPointOptions): NemesisCosts {
  const costs: NemesisCosts = { ...nemesisCosts };
  return {
    ...costs,
    eagerLimitBytes: options.eagerLimit ?? costs.eagerLimitBytes,
    lmt: options.lmt ?? costs.lmt,
    lmtChunkBytes: options.lmtChunk ?? costs.lmtChunkBytes,
    lmtSlots: options.lmtSlots ?? costs.lmtSlots,
    lmtBuffer: options.lmtBuffer ?? costs.lmtBuffer,
    sendSideNs: options.nemesisSideNs ?? costs.sendSideNs,
    recvSideNs: options.nemesisSideNs ?? costs.recvSideNs,
  };
}

/**
 * Reads the point-to-point choices from a run's free-form parameters (`shm`, `single`,
 * `singleThreshold`, `rails`, `railShare`, and Nemesis's and the sm BTL's own: `eagerLimit`, `lmt`,
 * `lmtChunk`, `lmtSlots`, `lmtBuffer`, `nemesisSideNs`, `smFragment`, `smPipelineDepth`, `smFastBox`), ignoring every other key. `where` locates the parameters in
 * the user's file.
 */
export function parsePointToPointOptions(
  params: Record<string, unknown>,
  where: InputLocation = {},
): Omit<PointToPointOptions, 'mechanisms'> {
  const field = (name: string) => ({ ...where, field: where.field ? `${where.field}.${name}` : name });
  const out: Omit<PointToPointOptions, 'mechanisms'> = {};
  if (params.shm !== undefined) out.shm = oneOf('shm', params.shm, SHM_PROTOCOLS, field('shm'));
  if (params.single !== undefined) out.single = oneOf('single', params.single, SINGLE_COPY, field('single'));
  if (params.singleThreshold !== undefined) {
    const v = params.singleThreshold;
    if (v !== singleCopyRendezvous && (typeof v !== 'number' || !Number.isInteger(v) || v < 0)) {
      throw new InputError(
        `singleThreshold must be a non-negative whole number of bytes or 'rendezvous', got ${JSON.stringify(v)}`,
        field('singleThreshold'),
      );
    }
    out.singleThreshold = v;
  }
  const rails: Partial<RailOptions> = {};
  if (params.rails !== undefined) rails.policy = oneOf('rails', params.rails, RAIL_POLICIES, field('rails'));
  if (params.railShare !== undefined) {
    const v = params.railShare;
    if (typeof v !== 'number' || !(v >= 0 && v <= 1))
      throw new InputError(`railShare must be a number from 0 to 1, got ${JSON.stringify(v)}`, field('railShare'));
    rails.share = v;
  }
  if (rails.policy !== undefined || rails.share !== undefined) out.rails = rails;
  if (params.eagerLimit !== undefined)
    out.eagerLimit = wholeBytes('eagerLimit', params.eagerLimit, 0, field('eagerLimit'));
  if (params.lmtChunk !== undefined) out.lmtChunk = wholeBytes('lmtChunk', params.lmtChunk, 1, field('lmtChunk'));
  if (params.lmtBuffer !== undefined)
    out.lmtBuffer = oneOf('lmtBuffer', params.lmtBuffer, LMT_BUFFERS, field('lmtBuffer'));
  if (params.nemesisSideNs !== undefined) {
    const v = params.nemesisSideNs;
    if (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v))
      throw new InputError(
        `nemesisSideNs must be a number of ns of at least 0, got ${JSON.stringify(v)}`,
        field('nemesisSideNs'),
      );
    out.nemesisSideNs = v;
  }
  for (const name of ['lmtSlots', 'smPipelineDepth'] as const) {
    const v = params[name];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
      throw new InputError(`${name} must be a whole number of at least 1, got ${JSON.stringify(v)}`, field(name));
    out[name] = v;
  }
  if (params.smFragment !== undefined)
    out.smFragment = wholeBytes('smFragment', params.smFragment, SM_FRAGMENT_MIN_BYTES, field('smFragment'));
  if (params.smFastBox !== undefined) {
    // At most the whole ring: vader itself takes a quarter of it (costs.ts, vaderFastBoxBytes).
    const box = wholeBytes('smFastBox', params.smFastBox, 0, field('smFastBox'));
    if (box > smBtlCosts.fastBoxRingBytes)
      throw new InputError(
        `smFastBox must be at most the fast box's ${smBtlCosts.fastBoxRingBytes} bytes, got ${box}`,
        field('smFastBox'),
      );
    out.smFastBox = box;
  }
  if (params.lmt !== undefined) {
    if (typeof params.lmt !== 'boolean')
      throw new InputError(`lmt must be true or false, got ${JSON.stringify(params.lmt)}`, field('lmt'));
    out.lmt = params.lmt;
  }
  const conflict = transportConflict(params);
  if (conflict) throw new InputError(conflict.message, field(conflict.param));
  return out;
}

/**
 * A combination of transport parameters that cannot mean what it says: a Nemesis option over the
 * sm BTL, or the LMT switched off under a single-copy mechanism (in MPICH the kernel mechanisms
 * are LMT implementations, so without the LMT there is none). Names the parameter at fault.
 */
export function transportConflict(params: Record<string, unknown>): { param: string; message: string } | undefined {
  if (params.shm === 'sm') {
    const given = NEMESIS_OPTIONS.find((name) => params[name] !== undefined);
    if (given)
      return {
        param: given,
        message: `${given} configures Nemesis, but shm is 'sm' (Open MPI's sm BTL has its own limits)`,
      };
  }
  const smOption = params.shm === 'sm' ? undefined : SM_OPTIONS.find((name) => params[name] !== undefined);
  if (smOption)
    return {
      param: smOption,
      message: `${smOption} configures Open MPI's sm BTL, but shm is ${JSON.stringify(params.shm ?? 'nemesis')}; add shm: sm`,
    };
  for (const param of ['lmtChunk', 'lmtSlots', 'lmtBuffer'])
    if (params.lmt === false && params[param] !== undefined)
      return { param, message: `${param} sizes the LMT pipeline, but lmt is false` };
  if (params.singleThreshold !== undefined && (params.single ?? 'none') === 'none')
    return {
      param: 'singleThreshold',
      message: `singleThreshold says where point-to-point switches to its single-copy mechanism, but single is 'none'; name one (single: cma, knem, ...)`,
    };
  if (params.lmt === false && params.single !== undefined && params.single !== 'none')
    return {
      param: 'lmt',
      message: `lmt: false leaves Nemesis without a large-message transfer, but single is ${JSON.stringify(params.single)}, which Nemesis runs as its LMT; use single: none`,
    };
  return undefined;
}

function wholeBytes(name: string, v: unknown, min: number, loc: InputLocation): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
    throw new InputError(`${name} must be a whole number of bytes of at least ${min}, got ${JSON.stringify(v)}`, loc);
  return v;
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], loc: InputLocation): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  const hint = typeof value === 'string' ? didYouMean(value, allowed) : undefined;
  throw new InputError(
    `${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}${hint ? ` (did you mean ${hint}?)` : ''}`,
    loc,
  );
}

/**
 * The sm BTL's constants on this machine: its fragment size and ob1's pipeline depth from the
 * run's parameters, and the library's work per fragment side from the machine where it was
 * measured there (`kernel.params.smSideNs`, fitted by `intranode validate --mpi`).
 */
function smCostsFor(spec: MachineSpec, options: PointToPointOptions): SmBtlCosts {
  const side = spec.kernel.params.smSideNs;
  const sideNs = side === undefined ? undefined : checkKernelParam(spec, 'smSideNs', side);
  const follow = spec.kernel.params.smFollowSideNs;
  const followNs = follow === undefined ? sideNs : checkKernelParam(spec, 'smFollowSideNs', follow);
  return {
    ...smBtlCosts,
    maxFragmentBytes: options.smFragment ?? smBtlCosts.maxFragmentBytes,
    sendPipelineDepth: options.smPipelineDepth ?? smBtlCosts.sendPipelineDepth,
    fastBoxBytes: options.smFastBox ?? smBtlCosts.fastBoxBytes,
    sendSideNs: sideNs ?? smParamDefaults.smSideNs,
    recvSideNs: sideNs ?? smParamDefaults.smSideNs,
    followSideNs: followNs ?? smParamDefaults.smFollowSideNs,
  };
}
