// What the model predicts for the native memcpy benchmark: each of `cores` copies `bytes` from one
// buffer of its own to another, warm (the copy has run once before, as the native warm-up does),
// all at once. Used to fit the copy and cache constants with the model in the loop, so a constant
// is whatever makes the model reproduce its measurement, through every bound the model applies.
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range } from '../../sim/node/buffer.ts';
import type { MachineSpec } from '../../hardware/spec.ts';

/** Time of one warm copy of `bytes` on every core of `cores` at once (ns): the slowest core's. */
export function modelCopyNs(spec: MachineSpec, cores: number[], bytes: number): number {
  const sim = new Simulation({ seed: 'calibrate' });
  const node = new Node(sim, spec);
  const pairs = cores.map((core, rank) => ({
    core,
    rank,
    src: range(node.allocate(`src${rank}`, bytes, rank)),
    dst: range(node.allocate(`dst${rank}`, bytes, rank)),
  }));
  let span = 0;
  for (let it = 0; it < 2; it++) {
    const start = sim.now;
    for (const p of pairs) {
      sim.spawn(`copy ${p.core}`, node.copy(p.core, p.src, p.dst, { rank: p.rank, label: 'memcpy' }));
    }
    sim.run();
    span = sim.now - start;
  }
  return span;
}
