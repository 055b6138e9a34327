// Ping-pong (OSU latency / IMB PingPong) over every transport, so one scenario can compare the
// double copy with each kernel-assisted single copy. Same operation and semantics as
// `pingpong:shm`: rank 0 sends, rank 1 answers from its own send buffer, half the round trip is
// reported.
//
// The ping-pong semantics hand the program only its buffer, not the call's parameters, so the KNEM
// offload mode is part of the algorithm's name here (`knem-thread`, `knem-ioat`) rather than a
// `mode` parameter; XPMEM's `regcache` and the `auto` choices reach the rank's mechanisms through
// the call's parameters without the program reading them.
import type { OffloadMode, Program, Rank } from '../../sim/node/rank-api.ts';
import { defineAlgorithm } from '../algorithm.ts';
import type { PingPongArgs } from './pingpong.ts';
import {
  describeTransport,
  send,
  transport,
  usesOfTransport,
  type Transport,
  type TransportName,
} from './transport.ts';

export function pingPongOver(t: Transport): (rank: Rank, args: PingPongArgs) => Program<void> {
  return function* pingPong(rank: Rank, { send: out, recv: into }: PingPongArgs): Program<void> {
    if (rank.id === 0) {
      yield* send(t, rank, 1, out);
      yield* t.recv(rank, 1, into);
    } else if (rank.id === 1) {
      yield* t.recv(rank, 0, into);
      yield* send(t, rank, 0, out);
    }
  };
}

const viaParams: TransportName[] = ['knem', 'cma', 'xpmem', 'limic', 'auto'];
const overParams = viaParams.map((name) =>
  defineAlgorithm({
    name: `pingpong:${name}`,
    operation: 'pingpong',
    description: `ping-pong over ${describeTransport(name).replace(/ \(param mode[^)]*\)/, '')}`,
    // KNEM's mode cannot be a parameter here (see above); `regcache` and the `auto` choices are
    // transport parameters (sim/kernel/transport-params.ts; `regcache` only where XPMEM is called).
    params: [],
    ...usesOfTransport(name),
    program: pingPongOver(transport(name)),
  }),
);

const offloads: OffloadMode[] = ['thread', 'ioat'];
const overOffloads = offloads.map((mode) =>
  defineAlgorithm({
    name: `pingpong:knem-${mode}`,
    operation: 'pingpong',
    description: `ping-pong over KNEM with the receiver's copy ${mode === 'ioat' ? 'offloaded to the I/OAT DMA engine' : 'done by a KNEM kernel thread'}`,
    params: [],
    ...usesOfTransport('knem'),
    program: pingPongOver(transport('knem', { mode })),
  }),
);

export const pingpongTransportAlgorithms = [...overParams, ...overOffloads];
