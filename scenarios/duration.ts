// Durations as scenarios write them: "2us", "500ns", "1.5ms". Errors are plain messages
// (DurationError); the loader attaches file, line and field.

import { ownEntry } from '../common/own-key.ts';

export class DurationError extends Error {
  override name = 'DurationError';
}

const UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6 };

/** The longest duration a scenario may give: an hour. The clock counts ns in a double, which keeps
 *  a thousandth of a ns only below about 9e12 ns; past it a copy's time would be lost to rounding. */
export const MAX_DURATION_NS = 3600e9;

/** Nanoseconds in `input`: a non-negative number with a unit (ns, us, ms), or 0 alone. */
export function parseDuration(input: string | number): number {
  if (input === 0) return 0;
  if (typeof input === 'number' && input < 0) throw new DurationError(`${input} is negative: a duration is 0 or more`);
  if (typeof input === 'number')
    throw new DurationError(`a duration needs a unit: ${input}us, ${input}ns or ${input}ms`);
  if (/^\s*-/.test(input)) throw new DurationError(`'${input}' is negative: a duration is 0 or more`);
  const m = /^(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|\.\d+)\s*([A-Za-zµ]*)$/.exec(input.trim());
  if (!m) throw new DurationError(`'${input}' is not a duration (expected e.g. 2us, 500ns, 1.5ms)`);
  const [, digits, unit] = m;
  if (unit === '') {
    if (Number(digits) === 0) return 0;
    throw new DurationError(`'${input}' needs a unit: ns, us or ms`);
  }
  const scale = ownEntry(UNITS, unit);
  if (scale === undefined) throw new DurationError(`unknown unit '${unit}' in '${input}' (use ns, us or ms)`);
  const ns = Number(digits) * scale;
  if (!(ns <= MAX_DURATION_NS))
    throw new DurationError(`'${input}' is longer than an hour, the longest duration allowed`);
  return ns;
}
