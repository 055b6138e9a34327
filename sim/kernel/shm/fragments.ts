// A message body cut into packets of one slot each (cells, fragments): the sender posts them one
// after the other, the receiver takes them from the transfer's box in order and unpacks each at its
// offset. Sender and receiver run concurrently, so packing packet k+1 overlaps unpacking packet k.
import type { Program } from '../../engine/program.ts';
import { subRange, type Range } from '../../node/buffer.ts';
import type { World } from '../../node/world.ts';
import { nextPacket } from './delivery.ts';
import { payloadBytes, withKind, type Packet, type PacketHeader, type PacketKind } from './packet.ts';
import { traced, type DoubleCopy } from './transport.ts';

/** Posts `data[offset..]` as packets of `firstKind` then 'frag' (through `post`, the transport's
 *  own unless given); returns once the last is posted. */
export function* postPieces(
  t: DoubleCopy,
  header: PacketHeader,
  data: Range,
  offset: number,
  firstKind: PacketKind,
  post: (header: PacketHeader, data: Range) => Program<void> = (h, d) => t.post(h, d),
): Program<void> {
  let kind = firstKind;
  do {
    const n = Math.min(t.capacity(kind), data.bytes - offset);
    yield* post(withKind(header, kind), subRange(data, offset, n));
    offset += n;
    kind = 'frag';
  } while (offset < data.bytes);
}

/** Unpacks the transfer's 'frag' packets into `into[offset..]` until it is full. */
export function* unpackPieces(
  world: World,
  t: DoubleCopy,
  me: number,
  id: number,
  from: number,
  into: Range,
  offset: number,
): Program<void> {
  while (offset < into.bytes) {
    const packet = yield* traced(world, me, 'poll', `frag<-${from}`, nextPacket(world, id, me));
    const n = payloadBytes(packet);
    if (n === 0 || offset + n > into.bytes)
      throw new Error(
        `rank ${me}: fragment of ${n} bytes from rank ${from} does not fit at ${offset} of ${into.bytes}`,
      );
    yield* t.unpack(packet, subRange(into, offset, n));
    offset += n;
  }
}

/** Sends a whole message eagerly: its first packet is matched, the rest follow as fragments. */
export function sendEager(t: DoubleCopy, header: PacketHeader, data: Range): Program<void> {
  return postPieces(t, header, data, 0, 'eager');
}

/** Receives an eager message whose first packet was matched; `into` holds exactly its bytes. */
export function* recvEager(world: World, t: DoubleCopy, me: number, first: Packet, into: Range): Program<void> {
  const n = payloadBytes(first);
  yield* t.unpack(first, subRange(into, 0, n));
  yield* unpackPieces(world, t, me, first.id, first.from, into, n);
}
