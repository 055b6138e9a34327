// Random workloads through the network, checked between every pair of events against properties
// that hold for any correct fluid max-min simulation.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propRuns } from '../helpers/prop-runs.ts';
import { FlowNetwork, type Flow, type Resource } from '../../sim/flow/network.ts';
import { maxMinRates } from '../../sim/flow/maxmin.ts';
import { FakeScheduler } from './fake-scheduler.ts';
import { bottleneckViolation, closeTo, maxMinViolation, type Problem } from './checks.ts';

interface FlowSpec {
  at: number;
  bytes: number;
  latency: number;
  uses: { resource: number; weight: number }[];
  /** A follow-up flow started from this one's completion callback, as a protocol would. */
  then?: { bytes: number; uses: { resource: number; weight: number }[] };
}

interface Workload {
  capacities: number[];
  flows: FlowSpec[];
}

const uses = (nRes: number) =>
  fc.array(
    fc.record({
      resource: fc.integer({ min: 0, max: nRes - 1 }),
      weight: fc.oneof(
        fc.constant(1),
        fc.constant(1),
        fc.constantFrom(2, 0.5),
        fc.double({ min: 0.25, max: 4, noNaN: true }),
      ),
    }),
    { minLength: 1, maxLength: 3 },
  );

// Small integers for times, sizes and capacities make simultaneous finishes common, which is where
// batching and float drift bite.
// fast-check keeps arrays near 10 entries whatever their maxLength: a workload of many flows says
// its least count.
const workloadOf = (maxRes: number, maxFlows: number, minFlows = 1): fc.Arbitrary<Workload> =>
  fc.integer({ min: 1, max: maxRes }).chain((nRes) =>
    fc.record({
      capacities: fc.array(fc.oneof(fc.integer({ min: 1, max: 16 }), fc.double({ min: 0.05, max: 50, noNaN: true })), {
        minLength: nRes,
        maxLength: nRes,
      }),
      flows: fc.array(
        fc.record(
          {
            at: fc.oneof(
              fc.constant(0),
              fc.integer({ min: 0, max: 200 }),
              fc.double({ min: 0, max: 200, noNaN: true }),
            ),
            bytes: fc.oneof(fc.integer({ min: 0, max: 2000 }), fc.double({ min: 1e-3, max: 1e5, noNaN: true })),
            latency: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50 })),
            uses: uses(nRes),
            then: fc.record({ bytes: fc.integer({ min: 1, max: 500 }), uses: uses(nRes) }),
          },
          { requiredKeys: ['at', 'bytes', 'latency', 'uses'] },
        ),
        { minLength: minFlows, maxLength: maxFlows },
      ),
    }),
  );

const workload = workloadOf(6, 30);

interface Started {
  /** Which flow of the workload: `i` for flows[i], `i then` for what its end starts. */
  key: string;
  flow: Flow;
  latency: number;
  uses: { resource: number; weight: number }[];
  /** Rate and bottleneck after each event, as steps; both only change at events. */
  steps: { t: number; rate: number; bottleneck?: number }[];
  firedAt?: number;
}

/** Runs a workload, checking every between-event state with `check` (with endOfInstant: every
 *  between-instant state, the network re-solving each instant's changes together at its end);
 *  returns every flow started. */
function simulateIn(
  w: Workload,
  check: (now: number, live: Started[], res: Resource[]) => void,
  endOfInstant: boolean,
): Started[] {
  const sched = new FakeScheduler({ endOfInstant });
  const net = new FlowNetwork(sched);
  const res = w.capacities.map((c, i) => net.addResource(`r${i}`, c));
  const started: Started[] = [];
  // What the checks find wrong is collected over the run and asserted once at its end: an expect
  // per flow per event cost most of this file's time, and the list names every violation.
  const stalls: string[] = [];
  const launch = (key: string, bytes: number, latency: number, u: FlowSpec['uses'], then?: FlowSpec['then']) => {
    const flow = net.start({ bytes, latency, uses: u.map((x) => ({ resource: res[x.resource], weight: x.weight })) });
    const s: Started = { key, flow, latency, uses: u, steps: [{ t: sched.now, rate: flow.rate }] };
    started.push(s);
    flow.onFire(() => {
      s.firedAt = sched.now;
      if (then) launch(`${key} then`, then.bytes, 0, then.uses);
    });
  };
  w.flows.forEach((f, i) => sched.schedule(f.at, () => launch(String(i), f.bytes, f.latency, f.uses, f.then)));
  sched.afterEach = () => {
    for (const s of started) s.steps.push({ t: sched.now, rate: s.flow.rate, bottleneck: s.flow.bottleneck?.id });
    check(
      sched.now,
      started.filter((s) => s.flow.rate > 0),
      res,
    );
    // No stall: once past its latency and until it finishes, a flow with bytes to send has a rate.
    for (const s of started) {
      const f = s.flow;
      if (f.bytes > 0 && f.finishedAt === undefined && sched.now > f.startedAt + s.latency && !(f.rate > 0))
        stalls.push(`flow ${f.id} stalled at ${sched.now} (rate ${f.rate})`);
    }
  };
  sched.runAll();
  expect(stalls).toEqual([]);
  expect(net.activeFlowCount).toBe(0);
  return started;
}

function problemOf(live: Started[], capacities: number[]): Problem {
  return { capacities, flows: live.map((s) => ({ uses: s.uses })) };
}

describe.each([
  ['each change solved at once', false],
  ['each instant solved at its end', true],
])('FlowNetwork properties, %s', (_, endOfInstant) => {
  const simulate = (w: Workload, check: (now: number, live: Started[], res: Resource[]) => void) =>
    simulateIn(w, check, endOfInstant);

  it('never loads a resource above its capacity', () => {
    fc.assert(
      fc.property(workload, (w) => {
        const over: string[] = [];
        simulate(w, (now, live, res) => {
          const load = res.map(() => 0);
          for (const s of live) for (const u of s.uses) load[u.resource] += u.weight * s.flow.rate;
          load.forEach((l, r) => {
            if (!(l <= w.capacities[r] * (1 + 1e-9))) over.push(`r${r} at ${now}: ${l} > ${w.capacities[r]}`);
          });
        });
        expect(over).toEqual([]);
      }),
      { numRuns: propRuns(300) },
    );
  });

  it('is max-min fair at every instant (weighted bottleneck condition)', () => {
    fc.assert(
      fc.property(workload, (w) => {
        const unfair: string[] = [];
        simulate(w, (now, live) => {
          const v = maxMinViolation(
            problemOf(live, w.capacities),
            live.map((s) => s.flow.rate),
          );
          if (v !== undefined) unfair.push(`at ${now}: ${v}`);
        });
        expect(unfair).toEqual([]);
      }),
      { numRuns: propRuns(300) },
    );
  });

  it('records for each flow a bottleneck that certifies its rate: saturated, and no flow there is faster', () => {
    fc.assert(
      fc.property(workload, (w) => {
        const uncertified: string[] = [];
        const started = simulate(w, (now, live) => {
          const p = problemOf(live, w.capacities);
          const named = live.map((s) => s.flow.bottleneck?.id ?? -1);
          const v = bottleneckViolation(
            p,
            live.map((s) => s.flow.rate),
            named,
          );
          if (v !== undefined) uncertified.push(`at ${now}: ${v}`);
        });
        expect(uncertified).toEqual([]);
        for (const s of started) {
          // Done: no current bottleneck; the main one is a resource it crossed, if it carried bytes.
          expect(s.flow.bottleneck).toBeUndefined();
          const main = s.flow.mainBottleneck();
          if (s.flow.bytes === 0) {
            expect(main).toBeUndefined();
            continue;
          }
          expect(s.uses.map((u) => u.resource)).toContain(main?.id);
          // It is the one held longest, timed independently from the steps seen between events.
          const held = new Map<number, number>();
          for (let i = 0; i + 1 < s.steps.length; i++) {
            const b = s.steps[i].bottleneck;
            if (b !== undefined) held.set(b, (held.get(b) ?? 0) + s.steps[i + 1].t - s.steps[i].t);
          }
          const longest = Math.max(0, ...held.values());
          expect(held.get(main!.id) ?? 0, `flow ${s.flow.id}: ${JSON.stringify([...held])}`).toBeGreaterThanOrEqual(
            longest * (1 - 1e-9),
          );
        }
      }),
      { numRuns: propRuns(300) },
    );
  });

  it('re-solving incrementally matches solving the whole network from scratch', () => {
    fc.assert(
      fc.property(workload, (w) => {
        const differ: string[] = [];
        simulate(w, (now, live) => {
          const p = problemOf(live, w.capacities);
          const scratch = maxMinRates(p.capacities, p.flows);
          live.forEach((s, i) => {
            if (!closeTo(s.flow.rate, scratch[i]))
              differ.push(`flow ${s.flow.id} at ${now}: ${s.flow.rate} vs ${scratch[i]}`);
          });
        });
        expect(differ).toEqual([]);
      }),
      { numRuns: propRuns(300) },
    );
  });

  it('stays max-min fair and equal to a from-scratch solve in larger networks', () => {
    fc.assert(
      fc.property(workloadOf(40, 150, 60), (w) => {
        const wrong: string[] = [];
        let most = 0;
        simulate(w, (now, live) => {
          most = Math.max(most, live.length);
          const p = problemOf(live, w.capacities);
          const scratch = maxMinRates(p.capacities, p.flows);
          const v = maxMinViolation(p, scratch);
          if (v !== undefined) wrong.push(`at ${now}: ${v}`);
          live.forEach((s, i) => {
            if (!closeTo(s.flow.rate, scratch[i]))
              wrong.push(`flow ${s.flow.id} at ${now}: ${s.flow.rate} vs ${scratch[i]}`);
          });
        });
        expect(wrong).toEqual([]);
        // More flows at once than the solver's arrays first hold (16), so they grow mid-run.
        expect(most).toBeGreaterThan(16);
      }),
      { numRuns: propRuns(8) },
    );
  });

  it('delivers every byte: the integral of rate over time equals the size, ending at finishedAt', () => {
    fc.assert(
      fc.property(workload, (w) => {
        const started = simulate(w, () => {});
        for (const s of started) {
          const f = s.flow;
          expect(f.finishedAt).toBeDefined();
          expect(s.firedAt).toBe(f.finishedAt);
          expect(f.remaining()).toBe(0);
          expect(f.rate).toBe(0);
          expect(f.finishedAt!).toBeGreaterThanOrEqual(f.startedAt + s.latency);
          let delivered = 0;
          let firstMoving = Infinity;
          let lastMoving = -Infinity;
          for (let i = 0; i + 1 < s.steps.length; i++) {
            const { t, rate } = s.steps[i];
            const dt = s.steps[i + 1].t - t;
            delivered += rate * dt;
            if (rate > 0 && dt > 0) {
              firstMoving = Math.min(firstMoving, t);
              lastMoving = Math.max(lastMoving, s.steps[i + 1].t);
            }
          }
          expect(closeTo(delivered, f.bytes, 1e-6) || Math.abs(delivered - f.bytes) < 1e-9).toBe(true);
          if (f.bytes > 0) {
            // Bytes flow from the end of the latency phase exactly until the flow finishes.
            expect(
              closeTo(firstMoving, f.startedAt + s.latency, 1e-12) || firstMoving === f.startedAt + s.latency,
            ).toBe(true);
            expect(lastMoving).toBe(f.finishedAt);
          } else {
            expect(f.finishedAt).toBe(f.startedAt + s.latency);
          }
        }
      }),
      { numRuns: propRuns(300) },
    );
  });

  it('counts every weighted byte a resource carried', () => {
    fc.assert(
      fc.property(workload, (w) => {
        const sched = new FakeScheduler({ endOfInstant });
        const net = new FlowNetwork(sched);
        const res = w.capacities.map((c, i) => net.addResource(`r${i}`, c));
        const expected = res.map(() => 0);
        for (const f of w.flows) {
          sched.schedule(f.at, () =>
            net.start({
              bytes: f.bytes,
              latency: f.latency,
              uses: f.uses.map((u) => ({ resource: res[u.resource], weight: u.weight })),
            }),
          );
          for (const u of f.uses) expected[u.resource] += u.weight * f.bytes;
        }
        sched.runAll();
        res.forEach((r, i) =>
          expect(closeTo(r.bytesCarried, expected[i], 1e-6) || Math.abs(r.bytesCarried - expected[i]) < 1e-6).toBe(
            true,
          ),
        );
      }),
      { numRuns: propRuns(200) },
    );
  });

  it('gives identical results for identical inputs', () => {
    fc.assert(
      fc.property(workload, (w) => {
        const trace = () => simulate(w, () => {}).map((s) => [s.flow.id, s.flow.finishedAt]);
        expect(trace()).toEqual(trace());
      }),
      { numRuns: propRuns(50) },
    );
  });
});

describe('FlowNetwork, changes of an instant solved at its end', () => {
  it('finishes every flow when solving each change at once would, to rounding', () => {
    fc.assert(
      fc.property(workload, (w) => {
        // By which flow of the workload, not by start order: flows starting at one instant (one at
        // its time, one when another ends) may start in either order when ends are found at the
        // instant's end.
        const ends = (endOfInstant: boolean) =>
          new Map(simulateIn(w, () => {}, endOfInstant).map((s) => [s.key, s.flow.finishedAt!]));
        const now = ends(false);
        const deferred = ends(true);
        expect([...deferred.keys()].sort()).toEqual([...now.keys()].sort());
        const apart = [...deferred].filter(
          ([k, t]) => !(closeTo(t, now.get(k)!, 1e-9) || Math.abs(t - now.get(k)!) < 1e-9),
        );
        expect(apart.map(([k, t]) => `flow ${k}: ${t} deferred, ${now.get(k)} at once`)).toEqual([]);
      }),
      { numRuns: propRuns(300) },
    );
  });

  it('solves the flows that start at one instant once', () => {
    const sched = new FakeScheduler({ endOfInstant: true });
    const net = new FlowNetwork(sched);
    const shared = net.addResource('memory', 10);
    const flows: Flow[] = [];
    sched.schedule(5, () => {
      for (let i = 0; i < 20; i++) flows.push(net.start({ bytes: 100, uses: [{ resource: shared }] }));
    });
    sched.step();
    expect(net.stats.solves).toBe(1);
    expect(flows.map((f) => f.rate)).toEqual(flows.map(() => 0.5));
    sched.runAll();
    // All twenty finish together at 5 + 100 / 0.5, in one batch; nothing is left to solve after.
    expect(flows.map((f) => f.finishedAt)).toEqual(flows.map(() => 205));
    expect(net.stats.solves).toBe(1);
  });
});
