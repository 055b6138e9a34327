// Filling an operation's buffers before every iteration, shared by the semantics of the collectives
// and of the point-to-point benchmarks: inputs hold fresh data named after their rank and buffer,
// outputs nothing. Buffers are allocated to the exact size and handed out as ranges over the whole
// buffer, so refilling replaces the whole content.
import { Content } from '../sim/node/content.ts';
import type { Range } from '../sim/node/rank-api.ts';

/** Name of the data a rank's input buffer is filled with, e.g. "r3.send". */
export function source(rank: number, buffer: string): string {
  return `r${rank}.${buffer}`;
}

export function fillFresh(r: Range, name: string): void {
  r.buf.content = Content.fresh(r.buf.size, name);
}

export function fillUninitialised(r: Range): void {
  r.buf.content = Content.uninitialised(r.buf.size);
}

/** The message size of a call, checked: a whole number of bytes. */
export function checkSize(operation: string, bytes: number): number {
  if (!Number.isInteger(bytes) || bytes < 0)
    throw new Error(`${operation}: bytes must be a non-negative integer, got ${bytes}`);
  return bytes;
}
