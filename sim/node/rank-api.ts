// The one interface an event program sees. Algorithms import this file (types only) and nothing
// else from the engine or the hardware model: every `yield*` on these methods is simulated time.
import type { RunState } from './run-state.ts';
import type { Program } from '../engine/program.ts';
import type { Buffer, Range } from './buffer.ts';

export type { Buffer, Range } from './buffer.ts';
export type { Program } from '../engine/program.ts';

/** How a program passes over its own buffer (Rank.pass). */
export type PassAccess = 'read' | 'write';

/** Where a rank sits, for topology-aware algorithms (trees built from the machine, not rank order). */
export interface RankTopology {
  /** NUMA node of the core each rank runs on, indexed by rank. */
  numaOf(rank: number): number;
  packageOf(rank: number): number;
  coreOf(rank: number): number;
  /** Whether two ranks share a cache (any level). */
  shareCache(a: number, b: number): boolean;
  /** Number of inter-socket links between the two ranks' packages (0 on the same package). */
  hops(a: number, b: number): number;
}

/** Small out-of-band messages over shared memory: cookies, offsets, "segment ready", "done". */
export interface Control {
  send(to: number, value: unknown): Program<void>;
  recv(from: number): Program<unknown>;
  /** One flag line that every reader polls (each receives `value` with `recv`): the write waits for
   *  the farthest reader's invalidation, and the readers see it one line transfer after another
   *  (flag-polling.ts). */
  publish(readers: readonly number[], value: unknown): Program<void>;
  /** Linear: the root sends `value` to every other rank; returns it on every rank. */
  bcast<T>(root: number, value?: T): Program<T>;
  /** Linear: every rank sends `value` to the root; the root gets them indexed by rank. */
  gather<T>(root: number, value?: T): Program<T[] | undefined>;
  allgather<T>(value: T): Program<T[]>;
  barrier(): Program<void>;
}

export type ReduceOp = 'sum' | 'prod' | 'max' | 'min' | 'band' | 'bor';

/** Two-sided point-to-point of buffer ranges, with the transport chosen per message by size. */
export interface PointToPoint {
  send(to: number, data: Range, tag?: number): Program<void>;
  recv(from: number, into: Range, tag?: number): Program<void>;
  /** Both at once (exchange patterns); completes when both are done. */
  sendrecv(to: number, data: Range, from: number, into: Range, tag?: number): Program<void>;
  /** Non-blocking forms: the returned program waits for completion. */
  isend(to: number, data: Range, tag?: number): Program<() => Program<void>>;
  irecv(from: number, into: Range, tag?: number): Program<() => Program<void>>;
}

export type KnemCookie = bigint;
export type CopyDirection = 'read' | 'write';
export type OffloadMode = 'sync' | 'thread' | 'ioat';

export interface KnemCopyHandle {
  /** Resolves when the asynchronous copy completes ('success'), or with the driver's error. */
  poll(): 'pending' | 'success' | 'error';
  wait(): Program<void>;
}

/** KNEM's extended interface (Goglin & Moreaud, JPDC 2013, Fig. 4). */
export interface Knem {
  createRegion(
    segments: Range | Range[],
    opts: { read?: boolean; write?: boolean; singleUse?: boolean },
  ): Program<KnemCookie>;
  destroyRegion(cookie: KnemCookie): Program<void>;
  /** Copies between local segments and a remote region at `offset`: 'read' pulls, 'write' pushes. */
  inlineCopy(args: {
    cookie: KnemCookie;
    offset: number;
    local: Range | Range[];
    direction: CopyDirection;
    mode?: OffloadMode;
  }): Program<KnemCopyHandle>;
  /** Copies between two regions, neither necessarily the caller's. */
  regionCopy(args: {
    src: KnemCookie;
    srcOffset: number;
    dst: KnemCookie;
    dstOffset: number;
    bytes: number;
    mode?: OffloadMode;
  }): Program<KnemCopyHandle>;
}

/** Cross Memory Attach: process_vm_readv / process_vm_writev against another rank's buffers. */
export interface Cma {
  readv(target: number, local: Range | Range[], remote: Range | Range[]): Program<void>;
  writev(target: number, local: Range | Range[], remote: Range | Range[]): Program<void>;
}

export type XpmemSegid = number;

/** XPMEM: expose, get, attach, then plain loads and stores on the peer's memory. */
export interface Xpmem {
  make(buffer: Buffer): Program<XpmemSegid>;
  /** Attach `bytes` at `offset` of the peer's exposed buffer (through the registration cache when
   *  enabled); returns a range that `rank.copy` and `rank.reduce` can read or write directly. */
  attach(owner: number, segid: XpmemSegid, offset: number, bytes: number): Program<Range>;
  /** Lazy deregistration: entries stay in the registration cache until evicted or finalised. */
  detach(view: Range): Program<void>;
}

/** LiMIC: kernel-assisted copy of a send buffer described by a descriptor, no cookie checks. */
export interface Limic {
  txInit(data: Range): Program<unknown>;
  rx(descriptor: unknown, into: Range): Program<void>;
}

export interface Rank {
  readonly id: number;
  readonly size: number;
  readonly topology: RankTopology;
  now(): number;
  sleep(ns: number): Program<void>;
  /** A private buffer; its pages land on this rank's NUMA node unless `numa` says otherwise. */
  alloc(name: string, bytes: number, opts?: { numa?: number }): Buffer;
  /** User-space memcpy by this rank's core. */
  copy(src: Range, dst: Range, label?: string): Program<void>;
  /** dst = dst op src, element-wise, computed by this rank's core. */
  reduce(op: ReduceOp, src: Range, dst: Range): Program<void>;
  /** This rank's core reads or writes every byte of `r` (the program using its data: initialising
   *  what it sends, reading what it received); the content stays as it is. */
  pass(r: Range, access: PassAccess): Program<void>;
  readonly control: Control;
  readonly p2p: PointToPoint;
  /** Each mechanism is always there to call; on a kernel that lacks it the call fails with a
   *  MechanismError (ENODEV / ENOSYS) that the program can catch, as the real driver would. */
  readonly knem: Knem;
  readonly cma: Cma;
  readonly xpmem: Xpmem;
  readonly limic: Limic;
  /** Which mechanisms this node's kernel offers. */
  readonly mechanisms: { cma: boolean; knem: boolean; xpmem: boolean; limic: boolean; ioat: boolean };
  /** Records a step in the run's trace (algorithms mark phases; mechanisms record their steps). */
  mark(kind: string, label: string): void;
  /** The run's piece of state `key` (what a library keeps from call to call: scratch buffers,
   *  exposed segments), shared by every rank of the run. */
  runState<T>(key: RunState<T>): T;
}
