// The two directions of a KNEM inline copy as the collectives use them (Ma et al. 2010, seed 000,
// §III): receiver-reading pulls from a peer's region, sender-writing pushes into it. Both are
// synchronous copies by the calling rank's core; an empty block makes no system call at all.
import type { KnemCookie, Program, Range, Rank } from '../../../sim/node/rank-api.ts';

/** Copies `local.bytes` from the region behind `cookie`, at `offset`, into `local`. */
export function* pull(rank: Rank, cookie: KnemCookie, offset: number, local: Range | Range[]): Program<void> {
  if (bytesOf(local) === 0) return;
  const copy = yield* rank.knem.inlineCopy({ cookie, offset, local, direction: 'read' });
  yield* copy.wait();
}

/** Copies `local` into the region behind `cookie`, at `offset`. */
export function* push(rank: Rank, cookie: KnemCookie, offset: number, local: Range): Program<void> {
  if (local.bytes === 0) return;
  const copy = yield* rank.knem.inlineCopy({ cookie, offset, local, direction: 'write' });
  yield* copy.wait();
}

function bytesOf(local: Range | Range[]): number {
  return Array.isArray(local) ? local.reduce((n, r) => n + r.bytes, 0) : local.bytes;
}
