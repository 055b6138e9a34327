// Flow solver cost per change: with 1,000 concurrent flows over 200 resources, how long one start or
// one finish takes to re-solve, in wall-clock microseconds. The target (a median of 50 us or less
// in the realistic mix) keeps a re-solve well below the time the simulator spends per copy elsewhere.
//
// Two workloads, kept in a steady state (each finish starts a replacement flow):
// - mixed: the 200 resources form 40 independent domains of 5 (think of one socket's copy engines,
//   memory channel and link lanes when copies stay NUMA-local); each flow crosses 2-5 resources of
//   one domain, so the flow graph has about 40 components of about 25 flows.
// - giant: each flow crosses 2-5 resources drawn from all 200, so everything is one component and
//   every change re-solves all 1,000 flows. This is the worst case, reported as it is.

import seedrandom from 'seedrandom';
import type { Cancellable, Scheduler } from '../sim/engine/waitable.ts';
import { FlowNetwork, type Resource } from '../sim/flow/network.ts';
import type { BenchRow } from './types.ts';
import { median } from './child-cpu.ts';

const FLOWS = 1000;
const RESOURCES = 200;
const DOMAIN_SIZE = 5;
const TARGET_MEDIAN_US = 50;

/** A binary-heap event queue ordered by (time, insertion), with lazy cancellation: a stand-in for
 *  the engine's queue, so this benchmark measures the solver and not a slow list. */
class HeapScheduler implements Scheduler {
  now = 0;
  private readonly heap: { time: number; seq: number; fn: () => void; dead: boolean }[] = [];
  private seq = 0;

  schedule(delay: number, fn: () => void): Cancellable {
    const e = { time: this.now + delay, seq: this.seq++, fn, dead: false };
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
    return { cancel: () => (e.dead = true) };
  }

  step(): boolean {
    for (;;) {
      const e = this.pop();
      if (e === undefined) return false;
      if (e.dead) continue;
      this.now = e.time;
      e.fn();
      return true;
    }
  }

  private pop() {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last !== undefined) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.before(h[l], h[m])) m = l;
        if (r < h.length && this.before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }

  private before(a: { time: number; seq: number }, b: { time: number; seq: number }): boolean {
    return a.time < b.time || (a.time === b.time && a.seq < b.seq);
  }
}

type Shape = 'mixed' | 'giant';

interface Measured {
  startUs: number[];
  finishUs: number[];
  flowsPerSolve: number;
}

function pick(rng: () => number, from: Resource[], count: number): Resource[] {
  const pool = [...from];
  const out: Resource[] = [];
  for (let i = 0; i < count; i++) out.push(pool.splice(Math.floor(rng() * pool.length), 1)[0]);
  return out;
}

function measure(shape: Shape, warmup: number, samples: number): Measured {
  const rng = seedrandom(`flow-bench-${shape}`);
  const sched = new HeapScheduler();
  const net = new FlowNetwork(sched);
  const resources = Array.from({ length: RESOURCES }, (_, i) => net.addResource(`r${i}`, 5 + 20 * rng()));
  const domains = Array.from({ length: RESOURCES / DOMAIN_SIZE }, (_, d) =>
    resources.slice(d * DOMAIN_SIZE, (d + 1) * DOMAIN_SIZE),
  );
  let lastWasStart: boolean;
  const launch = () => {
    lastWasStart = true;
    const from = shape === 'mixed' ? domains[Math.floor(rng() * domains.length)] : resources;
    const uses = pick(rng, from, 2 + Math.floor(rng() * 4)).map((resource) => ({ resource }));
    const flow = net.start({ bytes: 1e4 + 1e6 * rng(), uses });
    flow.onFire(() => sched.schedule(0, launch));
  };
  for (let i = 0; i < FLOWS; i++) launch();

  const startUs: number[] = [];
  const finishUs: number[] = [];
  const before = { ...net.stats };
  for (let n = 0; n < warmup + samples; n++) {
    lastWasStart = false;
    const t0 = process.hrtime.bigint();
    sched.step();
    const us = Number(process.hrtime.bigint() - t0) / 1000;
    if (n >= warmup) (lastWasStart ? startUs : finishUs).push(us);
  }
  const solves = net.stats.solves - before.solves;
  return { startUs, finishUs, flowsPerSolve: (net.stats.flowsResolved - before.flowsResolved) / solves };
}

const round = (x: number) => Math.round(x * 100) / 100;

function rows(shape: Shape, m: Measured, withTarget: boolean): BenchRow[] {
  const all = median([...m.startUs, ...m.finishUs]);
  const label = `flow ${shape} (${FLOWS} flows, ${RESOURCES} resources, ${round(m.flowsPerSolve)} flows per re-solve)`;
  return [
    {
      name: `${label}: median us per start/finish re-solve`,
      value: round(all),
      unit: 'us',
      ...(withTarget ? { target: `<= ${TARGET_MEDIAN_US}`, ok: all <= TARGET_MEDIAN_US } : {}),
    },
    { name: `${label}: median us per start`, value: round(median(m.startUs)), unit: 'us' },
    { name: `${label}: median us per finish`, value: round(median(m.finishUs)), unit: 'us' },
  ];
}

export function run(): BenchRow[] {
  const mixed = measure('mixed', 5_000, 20_000);
  const giant = measure('giant', 500, 3_000);
  return [...rows('mixed', mixed, true), ...rows('giant', giant, false)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of run()) {
    const goal = row.target === undefined ? '' : ` (target ${row.target}, ${row.ok ? 'ok' : 'MISSED'})`;
    console.log(`${row.name}: ${row.value} ${row.unit}${goal}`);
  }
}
