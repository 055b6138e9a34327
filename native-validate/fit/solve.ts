// One-dimensional and two-parameter fits the calibration uses.

/**
 * The x in [lo, hi] at which a non-increasing `time(x)` (time against a bandwidth, say) equals
 * `target`, by bisection on a log scale. `reached` is false when even `hi` leaves the model slower
 * than the target: something else bounds it, and x is not what limits the model there.
 */
export function solveDecreasing(
  time: (x: number) => number,
  target: number,
  lo: number,
  hi: number,
): { x: number; reached: boolean } {
  if (time(hi) > target) return { x: hi, reached: false };
  if (time(lo) <= target) return { x: lo, reached: true };
  for (let i = 0; i < 50; i++) {
    const mid = Math.sqrt(lo * hi);
    if (time(mid) > target) lo = mid;
    else hi = mid;
    if (hi / lo < 1 + 1e-4) break;
  }
  return { x: hi, reached: true };
}

/**
 * Non-negative least squares of y ≈ p·a + q·b over the points, each weighted by w (relative
 * errors: w = 1 / measured²). With two unknowns, the constrained optimum is the free one if both
 * are non-negative, else the better of the two one-parameter fits.
 */
export function nonNegativeFit2(points: { a: number; b: number; y: number; w: number }[]): { p: number; q: number } {
  let saa = 0,
    sab = 0,
    sbb = 0,
    say = 0,
    sby = 0;
  for (const { a, b, y, w } of points) {
    saa += w * a * a;
    sab += w * a * b;
    sbb += w * b * b;
    say += w * a * y;
    sby += w * b * y;
  }
  const det = saa * sbb - sab * sab;
  if (det > 0) {
    const p = (say * sbb - sby * sab) / det;
    const q = (sby * saa - say * sab) / det;
    if (p >= 0 && q >= 0) return { p, q };
  }
  const onlyP = { p: nonNegativeRatio(say, saa), q: 0 };
  const onlyQ = { p: 0, q: nonNegativeRatio(sby, sbb) };
  const cost = (f: { p: number; q: number }) =>
    points.reduce((s, { a, b, y, w }) => s + w * (y - f.p * a - f.q * b) ** 2, 0);
  return cost(onlyP) <= cost(onlyQ) ? onlyP : onlyQ;
}

/** The one-parameter optimum sum(w a y) / sum(w a²), clamped at zero (0 where no point moves it). */
function nonNegativeRatio(say: number, saa: number): number {
  return saa > 0 ? Math.max(0, say / saa) : 0;
}

/** Non-negative weighted least squares of y ≈ p·a alone (nonNegativeFit2 with one unknown). */
export function nonNegativeFit1(points: { a: number; y: number; w: number }[]): number {
  let saa = 0,
    say = 0;
  for (const { a, y, w } of points) {
    saa += w * a * a;
    say += w * a * y;
  }
  return nonNegativeRatio(say, saa);
}
