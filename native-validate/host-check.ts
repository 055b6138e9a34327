// Whether the host stayed the same machine while it was measured. On a virtual machine the
// hypervisor may move the virtual CPUs between physical cores, or put them on different core
// complexes, mid-run: a cache line then takes several times as long to pass between the two cores,
// and the constants fitted in training describe a host the test cases no longer ran on. A line
// ping-pong at the start (training's, when the run calibrates) is run again after the test cases; a
// trip that moved by more than CHANGE_FACTOR either way marks the run, so that its errors are not
// read as the model's.
import { runNative, type NativeRequest, type NativeRun } from './backend.ts';

/** How far the line trip may move before the host counts as changed: well beyond the few percent
 *  the same placement moves between runs, well below the 3-5 times a trip across core complexes
 *  costs against one within a complex. */
export const CHANGE_FACTOR = 1.5;

export interface HostCheck {
  /** The cores whose line trip was compared. */
  cores: number[];
  /** One-way trip of a cache line between them (ns, median): at the start, and after the test cases. */
  startNs: number;
  endNs: number;
  changed: boolean;
}

/** The line ping-pong between the first two of `cores`: training's (training.ts), and the check's. */
export function lineTripRequest(cores: number[], iterations: number): NativeRequest {
  return { bench: 'lineping', cores: cores.slice(0, 2), sizes: [64], iterations, warmup: 2 };
}

export function lineTrip(cores: number[], iterations: number): NativeRun {
  return runNative(lineTripRequest(cores, iterations));
}

/** Runs the line ping-pong of the start again on the same cores and compares. */
export function checkHost(start: NativeRun, iterations: number): HostCheck {
  return compareTrips(start.cores, start.results[0].medianNs, lineTrip(start.cores, iterations).results[0].medianNs);
}

export function compareTrips(cores: number[], startNs: number, endNs: number): HostCheck {
  const ratio = Math.max(startNs, endNs) / Math.min(startNs, endNs);
  return { cores, startNs, endNs, changed: !(ratio <= CHANGE_FACTOR) };
}

/** What was measured, in words. */
export function tripText(c: HostCheck): string {
  const [a, b] = c.cores;
  return `a cache line passed between cores ${a} and ${b} took ${c.startNs.toFixed(1)} ns each way at the start and ${c.endNs.toFixed(1)} ns after the test cases`;
}

/** The report's note on it. */
export function hostCheckText(c: HostCheck): string {
  const trip = tripText(c);
  return c.changed
    ? `the host changed during the run: ${trip} (the virtual CPUs were moved); the constants describe the first state, so the test set's errors describe the run, not the model`
    : `host check: ${trip}, within a factor ${CHANGE_FACTOR}`;
}
