// Message sizes as scenarios write them: "64KiB", "16KiB..16MiB x2", "1KiB..1MiB +4KiB".
// Units are binary (K = KiB = 1024) because the MPI benchmark literature the seeds come from
// (OSU, IMB, NetPIPE) counts "64 KB" as 65536 bytes.
// Errors are plain messages (SizeError); the loader attaches file, line and field.

import { formatBytes } from '../common/bytes.ts';
import { ownEntry } from '../common/own-key.ts';

export class SizeError extends Error {
  override name = 'SizeError';
}

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
};

/** A range longer than this is almost surely a typo ("+1" instead of "+1KiB") and would exhaust memory. */
export const MAX_RANGE_SIZES = 10_000;

/** Parses one size: a non-negative integer byte count or a number with a unit ("1.5KiB"). */
export function parseSize(input: string | number): number {
  if (typeof input === 'number') return checkBytes(input, String(input));
  const text = input.trim();
  const m = /^(-?)(\d+(?:\.\d+)?|\.\d+)\s*([A-Za-z]*)$/.exec(text);
  if (!m) throw new SizeError(`'${input}' is not a size (expected e.g. 4096, 64KiB, 1.5MiB)`);
  const [, sign, digits, unitText] = m;
  const unit = ownEntry(UNITS, unitText.toLowerCase());
  if (unit === undefined) {
    throw new SizeError(`unknown unit '${unitText}' in '${input}' (use B, KiB, MiB, GiB or TiB)`);
  }
  if (sign) throw new SizeError(`size '${input}' is negative`);
  return checkBytes(Number(digits) * unit, input);
}

function checkBytes(bytes: number, shown: string): number {
  if (!Number.isFinite(bytes)) throw new SizeError(`size '${shown}' is not a finite number`);
  if (bytes < 0) throw new SizeError(`size '${shown}' is negative`);
  if (!Number.isInteger(bytes)) throw new SizeError(`size '${shown}' is not a whole number of bytes`);
  if (bytes > Number.MAX_SAFE_INTEGER) throw new SizeError(`size '${shown}' is too large`);
  return bytes;
}

/** Whether a string is written as a range ("a..b step") rather than a single size. */
export function isRange(text: string): boolean {
  return text.includes('..');
}

/**
 * Expands "FROM..TO xF" (geometric, factor F > 1) or "FROM..TO +STEP" (arithmetic). The step
 * defaults to x2. TO is included when the progression reaches it exactly.
 */
export function parseSizeRange(input: string): number[] {
  const dots = input.indexOf('..');
  const fromText = input.slice(0, dots).trim();
  const rest = input.slice(dots + 2).trim();
  const m = /^(\S+?)\s*(?:([x+])\s*(\S+))?$/.exec(rest);
  // `1KiB...4KiB` would otherwise read as 1KiB up to '.4KiB'.
  if (dots < 0 || !fromText || !m || rest.startsWith('.')) {
    throw new SizeError(`'${input}' is not a size range (expected e.g. 16KiB..16MiB x2 or 1KiB..1MiB +4KiB)`);
  }
  const [, toText, op, stepText] = m;
  const from = parseSize(fromText);
  const to = parseSize(toText);
  if (from > to) throw new SizeError(`size range '${input}' is empty: ${fromText} is larger than ${toText}`);
  const sizes: number[] = [];
  if (op === '+') {
    const step = parseSize(stepText);
    if (step === 0) throw new SizeError(`size range '${input}' has a step of 0`);
    if ((to - from) / step >= MAX_RANGE_SIZES) throw tooMany(input);
    for (let s = from; s <= to; s += step) sizes.push(s);
  } else {
    const factor = op === undefined ? 2 : Number(stepText);
    if (op !== undefined && !/^\d+(\.\d+)?$/.test(stepText)) {
      throw new SizeError(`size range '${input}' needs a factor after 'x' (e.g. x2)`);
    }
    if (!(factor > 1)) {
      throw new SizeError(`size range '${input}' needs a factor larger than 1 after 'x' (e.g. x2)`);
    }
    if (from === 0) throw new SizeError(`size range '${input}' is geometric and cannot start at 0`);
    for (let s = from; s <= to; s = Math.max(s + 1, Math.round(s * factor))) {
      sizes.push(s);
      if (sizes.length > MAX_RANGE_SIZES) throw tooMany(input);
    }
  }
  return sizes;
}

function tooMany(input: string): SizeError {
  return new SizeError(`size range '${input}' has more than ${MAX_RANGE_SIZES} sizes; use a larger step`);
}

/** Parses one entry of `sizes`: a single size or a range. */
export function parseSizeSpec(input: string | number): number[] {
  if (typeof input === 'string' && isRange(input)) return parseSizeRange(input);
  return [parseSize(input)];
}

/** Sorted, without repeats: a table has one row per size. */
export function normaliseSizes(sizes: number[]): number[] {
  return [...new Set(sizes)].sort((a, b) => a - b);
}

/** The shortest exact spelling: 262144 → "256KiB", 1000 → "1000B". */
export function formatSize(bytes: number): string {
  return formatBytes(bytes, { exact: true });
}
