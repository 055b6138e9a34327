// Whether the host stayed the same machine while it was measured. On a virtual machine the
// hypervisor may move the virtual CPUs between physical cores, or put them on different core
// complexes, mid-run: a cache line then takes several times as long to pass between the two cores,
// and the constants fitted in training describe a host the test cases no longer ran on. A line
// ping-pong at the start (training's, when the run calibrates) is run again after the test cases; a
// trip that moved by more than CHANGE_FACTOR either way marks the run, so that its errors are not
// read as the model's.
//
// Where there are two cores, the training's ring stores (the claims ring: 64 KiB stored into lines the
// other core has just read, which costs.claimConcurrency is fitted on) are run again too, and either
// moving by more than the factor marks the run. Neither catches everything: in some runs the native
// double-copy test rows ran three to four times slower than predicted in every round while the trip
// and the ring measured at the end as in training (docs/validation.md, the runs' table).
import { runNative, type NativeRequest, type NativeRun, type NativeStats } from './backend.ts';

/** How far the line trip may move before the host counts as changed: well beyond the few percent
 *  the same placement moves between runs, well below the 3-5 times a trip across core complexes
 *  costs against one within a complex. */
export const CHANGE_FACTOR = 1.5;

/** Bytes the writer stores into ring lines the reader holds, in the ownership-claims measurement
 *  (training's and the check's): far more lines than a core's store buffer holds, and with its
 *  source well within the L2 of the processors the presets describe (256 KiB and up). */
export const CLAIMS_RING_BYTES = 64 * 1024;

export interface HostCheck {
  /** The cores whose line trip was compared. */
  cores: number[];
  /** One-way trip of a cache line between them (ns, median): at the start, and after the test cases. */
  startNs: number;
  endNs: number;
  /** The claims ring's time (ns, median), at the start and after the test cases; absent where it
   *  was not measured at the start. */
  ring?: { startNs: number; endNs: number };
  changed: boolean;
}

/** The line ping-pong between the first two of `cores`: training's (training.ts), and the check's. */
export function lineTripRequest(cores: number[], iterations: number): NativeRequest {
  return { bench: 'lineping', cores: cores.slice(0, 2), sizes: [64], iterations, warmup: 2 };
}

/** The first of `cores` storing into ring lines the second has just read: training's and the check's. */
export function claimsRingRequest(cores: number[], iterations: number): NativeRequest {
  return { bench: 'claims', cores: cores.slice(0, 2), sizes: [CLAIMS_RING_BYTES], cache: 'on', iterations, warmup: 2 };
}

export function lineTrip(cores: number[], iterations: number): NativeRun {
  return runNative(lineTripRequest(cores, iterations));
}

export function claimsRing(cores: number[], iterations: number): NativeRun {
  return runNative(claimsRingRequest(cores, iterations));
}

/** Runs the line ping-pong of the start, and the claims ring when it was run at the start, again on
 *  the same cores and compares. */
export function checkHost(start: { lines: NativeRun; ring?: NativeRun }, iterations: number): HostCheck {
  const cores = start.lines.cores;
  const ring = start.ring && {
    startNs: start.ring.results[0].medianNs,
    endNs: claimsRing(cores, iterations).results[0].medianNs,
  };
  return compareTrips(cores, start.lines.results[0].medianNs, lineTrip(cores, iterations).results[0].medianNs, ring);
}

const moved = (a: number, b: number) => !(Math.max(a, b) / Math.min(a, b) <= CHANGE_FACTOR);

/** Whether a measurement began and ended with the two cores' line trip within CHANGE_FACTOR of
 *  `startNs`, the start's: the placement the constants were fitted in. One that measured no trip
 *  (one rank) counts as in it. */
export function samePlacement(startNs: number): (s: NativeStats) => boolean {
  return (s) =>
    (s.tripBeforeNs === undefined || !moved(s.tripBeforeNs, startNs)) &&
    (s.tripNs === undefined || !moved(s.tripNs, startNs));
}

export function compareTrips(
  cores: number[],
  startNs: number,
  endNs: number,
  ring?: { startNs: number; endNs: number },
): HostCheck {
  const changed = moved(startNs, endNs) || (ring !== undefined && moved(ring.startNs, ring.endNs));
  return { cores, startNs, endNs, ...(ring ? { ring } : {}), changed };
}

/** What was measured, in words. */
export function tripText(c: HostCheck): string {
  const [a, b] = c.cores;
  const trip = `a cache line passed between cores ${a} and ${b} took ${c.startNs.toFixed(1)} ns each way at the start and ${c.endNs.toFixed(1)} ns after the test cases`;
  if (!c.ring) return trip;
  const us = (ns: number) => `${(ns / 1000).toFixed(2)} us`;
  return `${trip}; core ${a} storing ${CLAIMS_RING_BYTES / 1024} KiB into ring lines core ${b} had just read took ${us(c.ring.startNs)} and ${us(c.ring.endNs)}`;
}

/** The report's note on it. */
export function hostCheckText(c: HostCheck): string {
  const trip = tripText(c);
  return c.changed
    ? `the host changed during the run: ${trip} (the virtual CPUs were moved, or other work held them); the constants describe the first state, so the test set's errors describe the run, not the model`
    : `host check: ${trip}, within a factor ${CHANGE_FACTOR}`;
}
