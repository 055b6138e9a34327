// What travels between two ranks' shared-memory transports: a small header (matching information
// and which protocol the rest of the message follows) with, for data packets, the place in shared
// memory (fastbox, cell, fragment) where its payload lies until the receiver copies it out.
import type { Program } from '../../engine/program.ts';
import type { Range } from '../../node/buffer.ts';
import type { SingleCopyDescriptor } from '../../node/single-copy-descriptor.ts';

export type ShmProtocol = 'nemesis' | 'sm';
export type SingleCopy = 'none' | 'knem' | 'cma' | 'xpmem' | 'limic';

export const SHM_PROTOCOLS: readonly ShmProtocol[] = ['nemesis', 'sm'];
export const SINGLE_COPY: readonly SingleCopy[] = ['none', 'knem', 'cma', 'xpmem', 'limic'];

/** How the body of a message travels once its first packet is matched. */
export type MessagePath = 'eager' | 'large' | Exclude<SingleCopy, 'none'>;

/** `eager` and `rts` open a message and are matched by (source, tag); the others belong to a
 *  transfer already under way and go straight to it. */
export type PacketKind = 'eager' | 'rts' | 'cts' | 'frag' | 'done';

export interface PacketHeader {
  kind: PacketKind;
  from: number;
  to: number;
  tag: number;
  /** Per-pair sequence number: messages of one pair are matched in the order they were sent. */
  seq: number;
  /** Identifies the message's transfer across all its packets. */
  id: number;
  /** Bytes of the whole message. */
  total: number;
  path: MessagePath;
  /** Single-copy rendezvous: what the receiver copies from (an RTS over a kernel mechanism). */
  descriptor: SingleCopyDescriptor | undefined;
}

export interface Packet extends PacketHeader {
  /** Inline payload where it lies in shared memory; absent for header-only packets. */
  payload: Range | undefined;
  /** Hands the fastbox, cell or fragment back to its sender; called once by the receiver, after
   *  the payload was copied out. */
  release(): Program<void>;
}

export function opensMessage(kind: PacketKind): boolean {
  return kind === 'eager' || kind === 'rts';
}

// Headers and packets are written out field by field, never spread (`{ ...header, kind }`): every one
// then has the same fields in the same order, so the fragment path, which makes one per fragment of
// every message, reads them through one object shape. A spread copies through a generic path that
// took most of a transport's own time in CPU profiles.

/** A header: the one place its fields are written out (a sender's opening one has no descriptor). */
export function messageHeader(
  kind: PacketKind,
  from: number,
  to: number,
  tag: number,
  seq: number,
  id: number,
  total: number,
  path: MessagePath,
  descriptor: SingleCopyDescriptor | undefined = undefined,
): PacketHeader {
  return { kind, from, to, tag, seq, id, total, path, descriptor };
}

/** `h` as a packet of another kind, carrying `descriptor` (a single-copy RTS) or h's own. */
export function withKind(h: PacketHeader, kind: PacketKind, descriptor = h.descriptor): PacketHeader {
  return messageHeader(kind, h.from, h.to, h.tag, h.seq, h.id, h.total, h.path, descriptor);
}

/** The packet `h` heads, its payload lying at `payload`, handed back by `release`. */
export function packetOf(h: PacketHeader, payload: Range | undefined, release: () => Program<void>): Packet {
  return {
    kind: h.kind,
    from: h.from,
    to: h.to,
    tag: h.tag,
    seq: h.seq,
    id: h.id,
    total: h.total,
    path: h.path,
    descriptor: h.descriptor,
    payload,
    release,
  };
}

/** The header of a `kind` packet (CTS, DONE) its receiver sends back for the message `opening` opened. */
export function replyTo(opening: PacketHeader, kind: PacketKind): PacketHeader {
  const { from, to, tag, seq, id, total, path } = opening;
  return messageHeader(kind, to, from, tag, seq, id, total, path);
}

export function payloadBytes(p: Packet): number {
  return p.payload?.bytes ?? 0;
}

/** Trace kind of the library's work on a packet: data packets are queue work, the rest control. */
export function traceKind(kind: PacketKind): string {
  return kind === 'eager' || kind === 'frag' ? 'queue' : 'control';
}
