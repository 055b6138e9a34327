// A simulated buffer: its size, the rank that owns it, the NUMA node its pages live on (decided by
// first touch), and what it holds (provenance, not bytes).
import { Content } from './content.ts';

export class Buffer {
  readonly id: number;
  readonly name: string;
  readonly size: number;
  /** Owning rank, or -1 for a shared-memory segment no single rank owns. */
  readonly owner: number;
  /** NUMA node of the pages; undefined until first touched (Linux first-touch placement). */
  home: number | undefined;
  content: Content;

  constructor(id: number, name: string, size: number, owner: number, home?: number) {
    if (!Number.isInteger(size) || size < 0)
      throw new Error(`buffer ${name}: size must be a non-negative integer, got ${size}`);
    this.id = id;
    this.name = name;
    this.size = size;
    this.owner = owner;
    this.home = home;
    this.content = Content.uninitialised(size);
  }
}

/** A byte range of a buffer: what a copy reads or writes. */
export interface Range {
  buf: Buffer;
  offset: number;
  bytes: number;
}

export function range(buf: Buffer, offset = 0, bytes = buf.size - offset): Range {
  const r = { buf, offset, bytes };
  if (!withinBuffer(r))
    throw new RangeError(`range [${offset}, ${offset + bytes}) outside buffer ${buf.name} of ${buf.size} bytes`);
  return r;
}

/** `bytes` bytes from `offset` into `r`, as a range of the same buffer: the one way to slice a
 *  range (a block of equal blocks is `subRange(r, i * block, block)`). It must stay inside `r`. */
export function subRange(r: Range, offset: number, bytes: number): Range {
  if (offset < 0 || offset + bytes > r.bytes)
    throw new RangeError(`sub-range [${offset}, ${offset + bytes}) outside a range of ${r.bytes} bytes`);
  return range(r.buf, r.offset + offset, bytes);
}

/** Whether `r` is whole bytes inside its buffer (what a kernel checks of a user's iovec). */
export function withinBuffer(r: Range): boolean {
  return (
    Number.isInteger(r.offset) &&
    Number.isInteger(r.bytes) &&
    r.offset >= 0 &&
    r.bytes >= 0 &&
    r.offset + r.bytes <= r.buf.size
  );
}

export function describeRange(r: Range): string {
  return `${r.buf.name}[${r.offset}..${r.offset + r.bytes})`;
}
