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
import { CHANGE_FACTOR, samePlacement } from './host-check.ts';
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

/** `spec` with the outermost caches of cores `a` and `b` joined where they are apart, or apart where
 *  they are joined, and the line trip the model gives between them there; undefined where there is
 *  no outermost cache to join or split. */
function otherMachine(spec: MachineSpec, a: number, b: number): Omit<OtherPlacement, 'inPlacement'> | undefined {
  const other = structuredClone(spec);
  const joined = new Topology(spec).sharedCache(a, b) === undefined;
  if (joined ? joinOuterCaches(other, a, b) === undefined : !splitOuterCache(other, a, b)) return undefined;
  return { spec: other, tripNs: new Topology(other).lineLatency(a, b), joined };
}

/**
 * `spec` with the outermost caches of the first two of `cores` joined where they are apart, or
 * apart where they are joined, with the rounds that ran that way: those whose line trips before and
 * after were both nearer, as a ratio, to that machine's trip than to `placementNs` (the fitted
 * placement's), and did not stay within the fitted placement. Undefined where there are not two
 * cores, no trip for the fitted placement, no outermost cache to join or split, or where the two
 * trips lie within CHANGE_FACTOR squared of each other: a host whose rounds could fall in either by
 * interference alone (a machine whose memory is little slower than a line between two cores of one
 * cache, or whose two cores still share an inner cache) is not told apart by its trip.
 */
export function otherPlacement(
  spec: MachineSpec,
  cores: readonly number[],
  placementNs: number | undefined,
): OtherPlacement | undefined {
  if (cores.length < 2 || placementNs === undefined) return undefined;
  const other = otherMachine(spec, cores[0], cores[1]);
  if (!other || ratio(other.tripNs, placementNs) < CHANGE_FACTOR ** 2) return undefined;
  const fitted = samePlacement(placementNs);
  const nearer = (t: number | undefined) => t !== undefined && ratio(t, other.tripNs) < ratio(t, placementNs);
  return {
    ...other,
    inPlacement: (s: NativeStats) => !fitted(s) && nearer(s.tripBeforeNs) && nearer(s.tripNs),
  };
}

/**
 * The line trip of the placement a given machine file describes, for a run that measured
 * `measuredNs` at its start: the measurement where it is nearer, as a ratio, to the trip the
 * machine's model gives than to the one its other placement gives (the host began in the machine's
 * placement, and its trip is measured more exactly than a preset or an import states it), else the
 * machine's own (the host began in the other one).
 */
export function describedPlacementNs(spec: MachineSpec, cores: readonly number[], measuredNs: number): number {
  if (cores.length < 2) return measuredNs;
  const own = new Topology(spec).lineLatency(cores[0], cores[1]);
  const other = otherMachine(spec, cores[0], cores[1]);
  return other && ratio(measuredNs, other.tripNs) < ratio(measuredNs, own) ? own : measuredNs;
}

/** The machine a measurement is predicted on: the other placement's where its round ran there. */
export function machineOf(spec: MachineSpec, other: OtherPlacement | undefined, m: RoundedStats): MachineSpec {
  return m.placement === 'other' && other ? other.spec : spec;
}

/** The other placement in words, for the report. */
export function otherPlacementText(o: Pick<OtherPlacement, 'joined'>, cores: readonly number[]): string {
  const [a, b] = cores;
  return o.joined
    ? `cores ${a} and ${b} sharing their outermost cache, a line passing between them at that cache's fitted peer latency or, where none was fitted, its load latency (a trip the training did not measure, likely shorter than the host's)`
    : `cores ${a} and ${b} each with an outermost cache of its own, a line passing between them through memory`;
}
