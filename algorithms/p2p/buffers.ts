// Buffer filling and checking shared by the point-to-point benchmarks' semantics.
import { Content } from '../../sim/node/content.ts';
import type { Range } from '../../sim/node/rank-api.ts';

/** Name of the data a rank's buffer is filled with, e.g. "r1.send". */
export function source(rank: number, buffer: string): string {
  return `r${rank}.${buffer}`;
}

export function fillFresh(r: Range, name: string): void {
  r.buf.content = Content.fresh(r.buf.size, name);
}

export function fillUninitialised(r: Range): void {
  r.buf.content = Content.uninitialised(r.buf.size);
}

/** Throws naming the buffer and what it holds when `r`'s whole buffer is not `expected`. */
export function expectHolds(what: string, r: Range, expected: Content): void {
  if (!r.buf.content.equals(expected)) {
    throw new Error(`${what} holds ${r.buf.content.describe()}, expected ${expected.describe()}`);
  }
}

export function checkSize(operation: string, bytes: number): number {
  if (!Number.isInteger(bytes) || bytes < 0) throw new Error(`${operation}: bytes must be a non-negative integer, got ${bytes}`);
  return bytes;
}
