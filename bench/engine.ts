// Engine throughput: timeout events per second with many processes sleeping random amounts, the
// pattern every rank-level model produces. The target, at least 3 million timeout events per
// second on one core of a two-core CI machine, keeps the engine far from being what limits a sweep.

import { Simulation } from '../sim/engine/simulation.ts';
import type { Program } from '../sim/engine/program.ts';
import type { BenchRow } from './types.ts';
import { median } from './child-cpu.ts';

const PROCESSES = 1000;
const EVENTS = 1_000_000;
const REPETITIONS = 5;
const TARGET_EVENTS_PER_S = 3e6;

/** Simulates EVENTS timeouts across PROCESSES sleepers; returns wall-clock events per second. */
export function timeoutThroughput(processes = PROCESSES, events = EVENTS): number {
  const sim = new Simulation({ seed: 'bench' });
  const perProcess = Math.ceil(events / processes);
  function* sleeper(): Program<void> {
    for (let i = 0; i < perProcess; i++) yield* sim.sleep(sim.random() * 100);
  }
  for (let p = 0; p < processes; p++) sim.spawn(`sleeper ${p}`, sleeper());
  const start = performance.now();
  sim.run();
  const seconds = (performance.now() - start) / 1000;
  return sim.eventsProcessed / seconds;
}

export function run(): BenchRow[] {
  timeoutThroughput(PROCESSES, EVENTS / 10); // warm the JIT so the first timed run is not an outlier
  const samples: number[] = [];
  for (let i = 0; i < REPETITIONS; i++) samples.push(timeoutThroughput());
  const value = median(samples);
  return [
    {
      name: `engine: timeout events/s (${EVENTS / 1e6}M events, ${PROCESSES} processes, median of ${REPETITIONS})`,
      value: Math.round(value),
      unit: 'events/s',
      target: `>= ${TARGET_EVENTS_PER_S / 1e6}M`,
      ok: value >= TARGET_EVENTS_PER_S,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of run())
    console.log(`${row.name}: ${row.value} ${row.unit} (target ${row.target}, ${row.ok ? 'ok' : 'MISSED'})`);
}
