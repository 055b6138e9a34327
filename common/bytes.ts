// Byte counts written for people: one rule for `machine show`, tables and messages, so a listing
// never prints `32464036 KiB` beside `31728 MiB`.

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

export interface ByteFormat {
  /** A space between number and unit ("32 KiB", as machine listings write it) or none ("32KiB"). */
  space?: boolean;
  /**
   * Spell the count exactly, in the largest unit that divides it ("1536B", "256KiB"): for values a
   * reader may copy back into a scenario (sizes, parameters). Otherwise a count that is not a whole
   * number of the largest unit it reaches is rounded to three significant digits ("4.59 GiB").
   */
  exact?: boolean;
}

export function formatBytes(bytes: number, format: ByteFormat = {}): string {
  const sep = format.space ? ' ' : '';
  let unit = 0;
  let value = bytes;
  const fits = format.exact ? () => Number.isInteger(value / 1024) : () => true;
  while (value >= 1024 && unit < UNITS.length - 1 && fits()) {
    value /= 1024;
    unit++;
  }
  const shown = Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(3)));
  return `${shown}${sep}${UNITS[unit]}`;
}
