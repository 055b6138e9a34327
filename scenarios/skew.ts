// Arrival skew: collectives in real applications do not start in lockstep, because ranks finish
// their computation at different times, and which algorithm wins depends on it (a linear root
// that waits for late ranks suffers less than a deep tree whose inner ranks are late).
import { seededStream } from './seeded.ts';

/**
 * Start delay (ns) of each rank in each iteration (warm-up included): `delays[iteration][rank]`,
 * uniform on [0, skewNs], rounded to whole ns. Uniform because it is bounded (no rank arrives
 * later than the window the user gave) and has a single parameter, the width of the arrival
 * window. The draws depend only on the seed and the counts, so every algorithm and size of a
 * scenario meets the same arrivals and differences between them are the algorithms', not luck's.
 */
export function arrivalDelays(seed: string, skewNs: number, iterations: number, ranks: number): number[][] {
  const random = seededStream(seed, 'skew');
  return Array.from({ length: iterations }, () => Array.from({ length: ranks }, () => Math.round(random() * skewNs)));
}
