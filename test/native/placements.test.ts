// The host's two placements of its two cores in the model (native-validate/placements.ts): the
// calibrated machine and the same one with the cores' outermost caches joined or apart, which rounds
// ran in which, and the rows predicted on the other machine.
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../hardware/index.ts';
import { validateMachine } from '../../hardware/validate.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { Topology } from '../../sim/node/topology.ts';
import { CHANGE_FACTOR, compareTrips } from '../../native-validate/host-check.ts';
import { splitOuterCache } from '../../native-validate/fit/shared-cache.ts';
import { describedPlacementNs, machineOf, otherPlacement } from '../../native-validate/placements.ts';
import { predictNs } from '../../native-validate/predict.ts';
import { formatReport, placementMoved, placementTrip } from '../../native-validate/report.ts';
import { fastestRound } from '../../native-validate/rounds.ts';
import { coreOneApart } from '../helpers/machines.ts';
import { pingpongRow, reportOf, steadyStats } from '../helpers/native-stats.ts';

/** Dancer, whose cores 0-3 share an L3 (a line passes between them at its peer latency, 33 ns),
 *  with memory as far as on the development host (230 ns against Dancer's 65): a machine whose two
 *  placements its line trip tells apart. */
function joined(): MachineSpec {
  const spec = structuredClone(loadPreset('dancer'));
  for (const n of spec.numaNodes) n.latencyNs = 230;
  return spec;
}

/** The same with core 1's L3 apart, as a virtual machine could list it (coreOneApart). */
const apart = (): MachineSpec => coreOneApart(joined());

const round = (medianNs: number, tripBeforeNs?: number, tripNs?: number) => ({
  ...steadyStats(2048, medianNs),
  ...(tripBeforeNs === undefined ? {} : { tripBeforeNs }),
  ...(tripNs === undefined ? {} : { tripNs }),
});

describe("the host's other placement", () => {
  it('splits the shared outermost cache of a joined machine and joins those of an apart one, leaving the given spec as it was', () => {
    const spec = joined();
    const before = JSON.stringify(spec);
    const split = otherPlacement(spec, [0, 1], 30)!;
    expect(JSON.stringify(spec)).toBe(before);
    expect(split.joined).toBe(false);
    expect(new Topology(split.spec).sharedCache(0, 1)).toBeUndefined();
    // The other cores keep the cache they shared with core 0; core 1's copy has its size.
    expect(new Topology(split.spec).sharedCache(0, 2)?.cores).toEqual([0, 2, 3]);
    const own = split.spec.caches.find((c) => c.level === 3 && c.cores.length === 1 && c.cores[0] === 1)!;
    expect(own.sizeBytes).toBe(spec.caches.find((c) => c.level === 3 && c.cores.includes(1))!.sizeBytes);
    expect(split.tripNs).toBe(new Topology(split.spec).lineLatency(0, 1));
    expect(split.tripNs).toBeGreaterThan(new Topology(spec).lineLatency(0, 1));
    // A cache of one core has no peer latency: the split machine is one the loader accepts.
    expect(() => validateMachine(split.spec)).not.toThrow();

    const join = otherPlacement(apart(), [0, 1], 230)!;
    expect(join.joined).toBe(true);
    expect(new Topology(join.spec).sharedCache(0, 1)?.cores).toEqual([0, 1, 2, 3]);
    expect(join.spec.caches.length).toBe(apart().caches.length - 1);
    expect(join.tripNs).toBe(new Topology(join.spec).lineLatency(0, 1));
  });

  it('has none without two cores or a trip at the start, or where the two trips are too near to tell apart', () => {
    expect(otherPlacement(joined(), [0], 30)).toBeUndefined();
    expect(otherPlacement(joined(), [0, 1], undefined)).toBeUndefined();
    // Dancer itself: a line through its memory (65 ns) is not CHANGE_FACTOR squared from one
    // through its L3 (33 ns), so a disturbed round could pass for the other placement.
    const dancer = structuredClone(loadPreset('dancer'));
    const split = structuredClone(dancer);
    expect(splitOuterCache(split, 0, 1)).toBe(true);
    expect(new Topology(split).lineLatency(0, 1) / 33).toBeLessThan(CHANGE_FACTOR ** 2);
    expect(otherPlacement(dancer, [0, 1], 33)).toBeUndefined();
  });

  it("judges a given machine's rows by the trip measured at the start where the host began in its placement, else by the machine's own", () => {
    const spec = joined();
    expect(describedPlacementNs(spec, [0, 1], 41)).toBe(41);
    expect(describedPlacementNs(spec, [0, 1], 200)).toBe(new Topology(spec).lineLatency(0, 1));
    expect(describedPlacementNs(spec, [0], 200)).toBe(200);
    // A machine with the cores apart, begun with them together: its own trip, through memory.
    expect(describedPlacementNs(apart(), [0, 1], 30)).toBe(new Topology(apart()).lineLatency(0, 1));
  });

  it('takes a round as the other placement when both its trips are nearer that trip than the start, and it is not in the fitted one', () => {
    const other = otherPlacement(joined(), [0, 1], 30)!;
    const t = other.tripNs;
    expect(other.inPlacement(round(1, t * 1.3, t * 0.9))).toBe(true);
    expect(other.inPlacement(round(1, 30, 31))).toBe(false);
    // Moved during the round: one trip each way.
    expect(other.inPlacement(round(1, 30, t))).toBe(false);
    expect(other.inPlacement(round(1, t, 30))).toBe(false);
    expect(other.inPlacement(round(1))).toBe(false);
    expect(other.inPlacement(round(1, undefined, t))).toBe(false);
  });

  it("chooses a fitted round first, else the other placement's, marked, else the fastest of all", () => {
    const other = otherPlacement(joined(), [0, 1], 30)!;
    const fitted = (s: { tripBeforeNs?: number; tripNs?: number }) =>
      s.tripBeforeNs !== undefined && s.tripNs !== undefined && s.tripBeforeNs < 45 && s.tripNs < 45;
    const t = other.tripNs;
    const placed = fastestRound([round(900, t, t), round(1000, 30, 31)], { inPlacement: fitted, other });
    expect(placed.medianNs).toBe(1000);
    expect(placed.placement).toBeUndefined();
    const moved = fastestRound([round(900, t, t), round(800, 30, t), round(950, t, t)], { inPlacement: fitted, other });
    expect(moved.medianNs).toBe(900);
    expect(moved.placement).toBe('other');
    const neither = fastestRound([round(900, 30, t), round(800, t, 30)], { inPlacement: fitted, other });
    expect(neither.medianNs).toBe(800);
    expect(neither.placement).toBeUndefined();
    // One round is marked as well.
    expect(fastestRound([round(900, t, t)], { inPlacement: fitted, other }).placement).toBe('other');
    expect(machineOf(joined(), other, moved)).toBe(other.spec);
    const spec = joined();
    expect(machineOf(spec, other, placed)).toBe(spec);
    expect(machineOf(spec, undefined, moved)).toBe(spec);
  });

  it("predicts a small message slower with the cores' caches apart, its lines passing through memory", () => {
    const spec = joined();
    const other = otherPlacement(spec, [0, 1], 30)!;
    const together = predictNs(spec, 'pingpong:shm', [0, 1], 2048, 'off');
    const separate = predictNs(other.spec, 'pingpong:shm', [0, 1], 2048, 'off');
    expect(new Topology(other.spec).lineLatency(0, 1)).toBeGreaterThan(new Topology(spec).lineLatency(0, 1));
    expect(separate).toBeGreaterThan(together);
  });

  it('marks the rows of the other placement ~, counts them apart from the moved ones, and keeps them in the summary without those', () => {
    const rows = [
      pingpongRow({ ...round(1000, 230, 225), placement: 'other' }, 960),
      pingpongRow(round(1000, 30, 230), 500),
      pingpongRow(round(1000, 30, 31), 1080),
    ];
    expect(rows.map((r) => placementMoved(r, 30))).toEqual([false, true, false]);
    const r = reportOf(rows, {
      hostCheck: compareTrips([0, 1], 30, 30),
      otherPlacement: { tripNs: 227.5, description: 'cores 0 and 1 each with an outermost cache of its own' },
    });
    expect(r.summary.placement).toEqual({
      moved: 1,
      other: 1,
      rest: { cases: 2, medianAbsErrorPct: 6, maxAbsErrorPct: 8 },
    });
    const text = formatReport(r);
    expect(text).toMatch(/ 230\.0\/225\.0~ /);
    expect(text).toMatch(/ 30\.0\/230\.0\* /);
    expect(text).toMatch(/ 30\.0\/31\.0 /);
    expect(text).toMatch(
      /nearer, as a ratio, to the 227\.5 ns the model gives in the host's other placement .*: 1 test rows; \* where/,
    );
  });

  it("judges rows against the machine's own placement where the run did not fit it, not the trip at the start", () => {
    // A machine file fitted with the cores together (27 ns), validated while the host had them apart.
    const rows = [200, 27].map((trip) => pingpongRow(round(1000, trip, trip), 1000));
    const r = reportOf(rows, { hostCheck: compareTrips([0, 1], 200, 200), placementNs: 27 });
    expect(placementTrip(r)).toBe(27);
    expect(r.summary.placement?.moved).toBe(1);
    expect(formatReport(r)).toMatch(/ 200\.0\/200\.0\* /);
    // Without it (a report kept from before), the host check's start stands for it.
    expect(placementTrip({ hostCheck: compareTrips([0, 1], 200, 200) })).toBe(200);
  });
});
