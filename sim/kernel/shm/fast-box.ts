// Open MPI vader's per-peer fast box (Open MPI 1.8-4.1, btl_vader_fbox.h): a ring of
// `fbox_size` bytes in shared memory that one sender writes and one receiver polls, set up by the
// sender with its `fbox_threshold`-th fragment posted to that peer through the FIFO, and only while
// the receiver still has one of its `fbox_max` boxes to give. A message takes its place in the
// ring from the current end, aligned, starting over at the ring's first aligned slot when the rest
// is too short; it goes by fragment instead when that place is still held by a message the
// receiver has not taken yet (mca_btl_vader_fbox_sendi returns false when the ring is full).
import { range, subRange, type Range } from '../../node/buffer.ts';
import type { World } from '../../node/world.ts';
import { lazily, RunState } from '../../node/run-state.ts';

/** The fast box constants (costs.ts, smBtlCosts). */
export interface FastBoxCosts {
  readonly fastBoxRingBytes: number;
  readonly fastBoxThreshold: number;
  readonly fastBoxesPerReceiver: number;
}

/** Vader's alignment of every message in the ring, and of its first slot. Source: Open MPI
 *  1.8-4.1 btl_vader_endpoint.h, `MCA_BTL_VADER_FBOX_ALIGNMENT 32`; the ring's start and end
 *  begin at it (btl_vader_fbox.h, mca_btl_vader_endpoint_setup_fbox_send). */
export const FAST_BOX_ALIGN = 32;
/** Vader's own header before each message in the ring: size, tag and sequence number. Source:
 *  btl_vader_fbox.h, `mca_btl_vader_fbox_hdr_t`, 8 bytes. */
export const FAST_BOX_HEADER_BYTES = 8;

interface Pair {
  fifoPosts: number;
  ring: Range | undefined;
  /** Where the next message would start. */
  end: number;
  /** Places of messages written and not yet taken by the receiver, oldest first: [start, end). */
  held: Array<[number, number]>;
}

const FAST_BOXES = new RunState('vader-fast-boxes', () => ({
  pairs: new Map<string, Pair>(),
  /** Per receiver, the boxes senders have set up towards it. */
  given: new Map<number, number>(),
}));

function pairOf(world: World, from: number, to: number): Pair {
  return lazily(world.stateOf(FAST_BOXES).pairs, `${from}>${to}`, () => ({
    fifoPosts: 0,
    ring: undefined,
    end: FAST_BOX_ALIGN,
    held: [],
  }));
}

/**
 * Counts one fragment posted from `from` to `to` through the FIFO; the threshold-th sets the box
 * up if the receiver has one left (mca_btl_vader_try_fbox_setup: one attempt, at exactly the
 * threshold).
 */
export function countFifoPost(world: World, costs: FastBoxCosts, from: number, to: number): void {
  const pair = pairOf(world, from, to);
  if (pair.ring !== undefined || ++pair.fifoPosts !== costs.fastBoxThreshold) return;
  const given = world.stateOf(FAST_BOXES).given;
  const taken = given.get(to) ?? 0;
  if (taken >= costs.fastBoxesPerReceiver) return;
  given.set(to, taken + 1);
  pair.ring = range(world.node.allocate(`vader fast box ${from}>${to}`, costs.fastBoxRingBytes, -1));
}

/** A place in the box from `from` to `to` for `headers` + `bytes`, with the range the data goes
 *  to and the call that gives the place back; undefined when there is no box or no room. */
export function placeInBox(
  world: World,
  from: number,
  to: number,
  headers: number,
  bytes: number,
): { slot: Range; release: () => void } | undefined {
  const pair = pairOf(world, from, to);
  const ring = pair.ring;
  if (ring === undefined) return undefined;
  const size = Math.ceil((headers + bytes) / FAST_BOX_ALIGN) * FAST_BOX_ALIGN;
  let start = pair.end;
  if (start + size > ring.bytes) start = FAST_BOX_ALIGN;
  if (start + size > ring.bytes) return undefined;
  const end = start + size;
  if (pair.held.some(([s, e]) => s < end && start < e)) return undefined;
  const place: [number, number] = [start, end];
  pair.held.push(place);
  pair.end = end;
  return {
    slot: subRange(ring, start + headers, bytes),
    release: () => {
      const i = pair.held.indexOf(place);
      if (i >= 0) pair.held.splice(i, 1);
    },
  };
}
