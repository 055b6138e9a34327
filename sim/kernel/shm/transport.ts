// The contract both double-copy transports (Nemesis, Open MPI sm BTL) fulfil for point-to-point:
// post a packet with up to one slot's worth of payload, unpack a received one, and move a large
// message's body by the transport's own protocol once its first packet has been matched.
import type { Program } from '../../engine/program.ts';
import type { Range } from '../../node/buffer.ts';
import type { World } from '../../node/world.ts';
import type { Packet, PacketHeader, PacketKind, ShmProtocol } from './packet.ts';
import { step as threadStep } from '../kernel-steps.ts';

export interface DoubleCopy {
  readonly protocol: ShmProtocol;
  /** Messages up to this many bytes go eagerly; larger ones through `sendLarge`/`recvLarge`. */
  readonly eagerLimit: number;
  /** Most payload one packet of this kind carries. */
  capacity(kind: PacketKind): number;
  /** Sender: claims a slot, copies `data` (at most `capacity(kind)` bytes) into it, posts it. */
  post(header: PacketHeader, data?: Range): Program<void>;
  /** Receiver: copies the packet's payload into `into` and hands its slot back. */
  unpack(packet: Packet, into?: Range): Program<void>;
  /** Sender side of a message above the eager limit (the header has kind 'rts', path 'large'). */
  sendLarge(header: PacketHeader, data: Range): Program<void>;
  /** Receiver side, after matching the message's RTS; `into` holds exactly the message's bytes. */
  recvLarge(rts: Packet, into: Range): Program<void>;
}

/** Runs `body` and records it as one trace step of `kind` for `rank`. */
export function* traced<T>(
  world: World,
  rank: number,
  kind: string,
  label: string,
  body: Program<T>,
  bytes = 0,
): Program<T> {
  const start = world.sim.now;
  const value = yield* body;
  world.node.trace.record({ rank, kind, label, start, end: world.sim.now, bytes });
  return value;
}

/** `ns` of the library's work on `rank`'s thread, recorded as one trace step (nothing for zero time). */
export function step(world: World, rank: number, kind: string, label: string, ns: number): Program<void> {
  return ns > 0 ? threadStep(world, rank, kind, label, ns) : nothing();
}

function* nothing(): Program<void> {}
