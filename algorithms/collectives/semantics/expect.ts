// Exact comparison of a buffer against what the operation defines it to hold: a list of blocks
// (where each lands and what it holds), every other byte still uninitialised. Failing messages name
// the rank, the buffer and the first wrong block, so a shrunk counterexample reads directly.
import type { Range } from '../../../sim/node/rank-api.ts';
import {
  Content,
  describePieces,
  expectedFresh,
  expectedReduction,
  piecesEqual,
  type Piece,
} from '../../../sim/node/content.ts';

export interface Block {
  /** For messages: "block from rank 3". */
  label: string;
  at: number;
  pieces: Piece[];
}

export function freshBlock(label: string, at: number, src: string, srcOffset: number, bytes: number): Block {
  return { label, at, pieces: expectedFresh(src, srcOffset, bytes) };
}

export function reducedBlock(label: string, at: number, op: string, sources: readonly string[], bytes: number): Block {
  return { label, at, pieces: expectedReduction(op, sources, 0, bytes) };
}

/** Throws an Error naming `what` and the first block that differs if `actual` is not exactly `blocks`. */
export function expectBlocks(what: string, actual: Range | undefined, bytes: number, blocks: readonly Block[]): void {
  if (actual === undefined) throw new Error(`${what}: the buffer is missing`);
  if (actual.bytes !== bytes) throw new Error(`${what}: the buffer has ${actual.bytes} bytes, expected ${bytes}`);
  const expected = Content.uninitialised(bytes);
  for (const b of blocks) expected.write(b.at, b.pieces);
  const got = actual.buf.content.slice(actual.offset, actual.bytes);
  const want = expected.slice(0, bytes);
  if (piecesEqual(got, want)) return;
  for (const b of blocks) {
    const length = b.pieces.reduce((n, p) => n + p.length, 0);
    const part = actual.buf.content.slice(actual.offset + b.at, length);
    if (!piecesEqual(part, b.pieces)) {
      throw new Error(
        `${what}: ${b.label} (bytes ${b.at}..${b.at + length}) holds ${describePieces(part)}, expected ${describePieces(b.pieces)}`,
      );
    }
  }
  throw new Error(
    `${what}: bytes outside every block were written: holds ${describePieces(got)}, expected ${describePieces(want)}`,
  );
}

/** An input buffer must still hold exactly what `fill` put there (MPI send buffers are read-only). */
export function expectUnchanged(what: string, actual: Range | undefined, src: string, bytes: number): void {
  expectBlocks(`${what} (an input, must be left unchanged)`, actual, bytes, [
    freshBlock('the whole buffer', 0, src, 0, bytes),
  ]);
}
