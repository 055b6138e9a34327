// Fixed-width text columns: the first left-aligned (sizes, names), the rest right-aligned numbers.

/** `header` starts with "# " so that gnuplot and OSU-reading scripts skip it. */
export function alignColumns(header: string[], rows: string[][], leftAligned = 1): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < leftAligned ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
