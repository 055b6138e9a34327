// The transports a point-to-point benchmark can run over, behind one send/receive interface, so a
// benchmark program is written once and registered once per transport ("pingping:knem", ...).
//   shm   : the rank's point-to-point (the shared-memory double copy), no parameters.
//   auto  : the rank's point-to-point with the library's choices as parameters (`shm`, `single`,
//           `singleThreshold`): the transport is picked per message by size.
//   knem, cma, xpmem, limic: the single-copy rendezvous of rendezvous.ts on that mechanism.
import type { OffloadMode, Program, Range, Rank } from '../../sim/node/rank-api.ts';
import type { ParamInfo, ParamValue } from '../algorithm.ts';
import { rendezvousIsend, rendezvousRecv, type Mechanism } from './rendezvous.ts';

export type TransportName = 'shm' | 'auto' | Mechanism;

export const TRANSPORTS: readonly TransportName[] = ['shm', 'knem', 'cma', 'xpmem', 'limic', 'auto'];

export interface Transport {
  readonly name: TransportName;
  /** Starts sending `data` to `to`; the returned program waits until `data` may be reused. */
  isend(rank: Rank, to: number, data: Range): Program<() => Program<void>>;
  recv(rank: Rank, from: number, into: Range): Program<void>;
}

/** A blocking send: start it and wait for it. */
export function* send(t: Transport, rank: Rank, to: number, data: Range): Program<void> {
  const done = yield* t.isend(rank, to, data);
  yield* done();
}

export const OFFLOAD_MODES: readonly OffloadMode[] = ['sync', 'thread', 'ioat'];

export const modeParam: ParamInfo = {
  name: 'mode',
  kind: 'choice',
  default: 'sync',
  choices: [...OFFLOAD_MODES],
  description: 'KNEM copy: synchronous by the calling core, by a kernel thread, or offloaded to the I/OAT DMA engine',
};

/**
 * The parameters a benchmark over `name` declares itself. The library's choices (`shm`, `single`,
 * `singleThreshold`) and XPMEM's `regcache` are transport parameters (sim/kernel/transport-params.ts;
 * `regcache` only where XPMEM is called) and reach the rank's mechanisms through the call, so they
 * are not repeated here.
 */
export function paramsOfTransport(name: TransportName): ParamInfo[] {
  return name === 'knem' ? [modeParam] : [];
}

/** Whether a benchmark over `name` sends through point-to-point (the others carry their own
 *  rendezvous over the mechanism). */
function sendsPointToPoint(name: TransportName): name is 'shm' | 'auto' {
  return name === 'shm' || name === 'auto';
}

/** What a benchmark over `name` declares it uses (algorithm.ts): the kernel mechanism it calls
 *  itself, none over the double copy and over `auto` only the one point-to-point takes through
 *  `single`; and whether it sends point-to-point. */
export function usesOfTransport(name: TransportName): {
  mechanisms: () => Mechanism[];
  pointToPoint: () => boolean;
} {
  if (sendsPointToPoint(name)) return { mechanisms: () => [], pointToPoint: () => true };
  return { mechanisms: () => [name], pointToPoint: () => false };
}

export function modeOf(params: Record<string, ParamValue>): OffloadMode {
  const mode = params.mode ?? 'sync';
  if (typeof mode !== 'string' || !(OFFLOAD_MODES as readonly string[]).includes(mode)) {
    throw new Error(`params.mode must be one of ${OFFLOAD_MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  }
  return mode as OffloadMode;
}

const pointToPoint = (name: 'shm' | 'auto'): Transport => ({
  name,
  isend: (rank, to, data) => rank.p2p.isend(to, data),
  recv: (rank, from, into) => rank.p2p.recv(from, into),
});

/** The transport `name` with the call's parameters (`mode` for KNEM; the others reach the rank's
 *  mechanisms through the call's parameters directly). */
export function transport(name: TransportName, params: Record<string, ParamValue> = {}): Transport {
  if (name === 'shm' || name === 'auto') return pointToPoint(name);
  const opts = { mode: name === 'knem' ? modeOf(params) : undefined };
  return {
    name,
    isend: (rank, to, data) => rendezvousIsend(rank, name, to, data, opts),
    recv: (rank, from, into) => rendezvousRecv(rank, from, into, opts),
  };
}

/** One line for `intranode algorithms`: what carries the bytes. */
export function describeTransport(name: TransportName): string {
  switch (name) {
    case 'shm':
      return 'the shared-memory double copy';
    case 'auto':
      return "the rank's point-to-point; params shm, single and singleThreshold select the transport per message";
    case 'knem':
      return 'KNEM: single-use read region, cookie sent, receiver inline copy (param mode: sync, thread, ioat)';
    case 'cma':
      return "CMA: the receiver process_vm_readv's the sender's buffer";
    case 'xpmem':
      return "XPMEM: the receiver attaches the sender's buffer and copies (param regcache)";
    case 'limic':
      return 'LiMIC: sender tx descriptor, receiver rx copy';
  }
}
