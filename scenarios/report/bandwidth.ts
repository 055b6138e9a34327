// Bandwidth of the point-to-point benchmarks, in the unit IMB ("Mbytes/sec", million bytes per
// second since IMB 2018) and OSU's osu_bw (size / 1e6 / seconds) print: 1 MB = 10^6 bytes.

/**
 * Operations that move one message between two ranks per reported time, so `bytes / time` is the
 * bandwidth IMB's PingPong and PingPing report (X / t, with t half the round trip for ping-pong).
 * Collectives have no single such figure; IMB prints none for them either.
 */
const POINT_TO_POINT: ReadonlySet<string> = new Set(['pingpong', 'pingping', 'knemcopy']);

export function reportsBandwidth(operation: string): boolean {
  return POINT_TO_POINT.has(operation);
}

/** MB/s (10^6 bytes per second) for `bytes` moved in `ns`; NaN when the time is not positive. */
export function megabytesPerSecond(bytes: number, ns: number): number {
  return ns > 0 ? (bytes * 1e3) / ns : NaN;
}
