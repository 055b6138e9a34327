// The two machines a host whose two cores move can be. On the development host the hypervisor puts
// the two virtual CPUs now on cores that share an L3 (a cache line passes between them in about
// 27 ns), now on cores that do not (about 230 ns), and the calibration fits the placement its
// training ran in (fit/shared-cache.ts). A test row that ran in the other one was measured on
// another machine: predicting it on the fitted one gave the run's largest errors (the 2 KiB rows, a
// few line trips each, predicted about twice as fast as measured). Both placements are in the
// model: the calibrated machine, and the same machine with the two cores' outermost caches apart
// where the fitted one has them joined, or joined where it has them apart. Every other constant
// stays as fitted; joined, the line passes at the fitted peer latency where there is one, else at
// the cache's load latency (sim/node/topology.ts), since the training did not measure that placement.
//
// Which placement a round ran in is read from the line trip measured right before and after it
// (src/measure.c): the fitted one where both stayed within CHANGE_FACTOR of the training's
// (host-check.ts, samePlacement), the other one where both were nearer, as a ratio, to the trip the
// model gives on the other machine than to the training's, the rule the calibration decides by.
import type { MachineSpec } from '../hardware/spec.ts';
import { Topology } from '../sim/node/topology.ts';
import type { NativeStats } from './backend.ts';
import { joinOuterCaches, splitOuterCache } from './fit/shared-cache.ts';
import { samePlacement } from './host-check.ts';
import type { InPlacement, RoundedStats } from './rounds.ts';

/** The calibrated machine's other placement, and how to tell a round that ran in it. */
export interface OtherPlacement {
  spec: MachineSpec;
  /** The one-way line trip between the two cores the model gives on `spec` (ns). */
  tripNs: number;
  /** Whether the two cores share their outermost cache on `spec`. */
  joined: boolean;
  /** Rounds that ran in it (and not in the fitted one). */
  inPlacement: InPlacement;
}

const ratio = (x: number, y: number) => Math.max(x, y) / Math.min(x, y);

/**
 * `spec` with the outermost caches of the first two of `cores` joined where they are apart, or
 * apart where they are joined, with the rounds that ran that way: those whose line trips before and
 * after were both nearer that machine's trip than `startNs`, the training's, and did not stay within
 * the fitted placement. Undefined where there are not two cores, no trip at the start, or no
 * outermost cache to join or split.
 */
export function otherPlacement(
  spec: MachineSpec,
  cores: readonly number[],
  startNs: number | undefined,
): OtherPlacement | undefined {
  if (cores.length < 2 || startNs === undefined) return undefined;
  const [a, b] = cores;
  const other = structuredClone(spec);
  const joined = new Topology(spec).sharedCache(a, b) === undefined;
  if (joined ? joinOuterCaches(other, a, b) === undefined : !splitOuterCache(other, a, b)) return undefined;
  const tripNs = new Topology(other).lineLatency(a, b);
  const fitted = samePlacement(startNs);
  const nearer = (t: number | undefined) => t !== undefined && ratio(t, tripNs) < ratio(t, startNs);
  return {
    spec: other,
    tripNs,
    joined,
    inPlacement: (s: NativeStats) => !fitted(s) && nearer(s.tripBeforeNs) && nearer(s.tripNs),
  };
}

/** The machine a measurement is predicted on: the other placement's where its round ran there. */
export function machineOf(spec: MachineSpec, other: OtherPlacement | undefined, m: RoundedStats): MachineSpec {
  return m.placement === 'other' && other ? other.spec : spec;
}

/** The other placement in words, for the report. */
export function otherPlacementText(o: Pick<OtherPlacement, 'joined' | 'tripNs'>, cores: readonly number[]): string {
  const [a, b] = cores;
  return o.joined
    ? `cores ${a} and ${b} sharing their outermost cache (a line between them ${o.tripNs.toFixed(1)} ns each way)`
    : `cores ${a} and ${b} each with an outermost cache of its own (a line between them through memory, ${o.tripNs.toFixed(1)} ns each way)`;
}
