// What the model predicts for the native `claims` benchmark (src/bench_mem.c): the writer copies a
// buffer of its own, warm, into the double copy's ring, which the reader has just copied out; only
// the writer's copy is timed. Used to fit costs.claimConcurrency with the model in the loop, so that
// the constant is whatever makes the model reproduce its measurement, through every bound the model
// applies to that copy (its caches' bandwidth, the claims).
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range } from '../../sim/node/buffer.ts';
import type { MachineSpec } from '../../hardware/spec.ts';

/** Time of the writer's copy into the ring after the reader's copy out of it (ns), in the steady
 *  state the native benchmark's warm-up reaches. */
export function modelClaimsNs(spec: MachineSpec, [writer, reader]: number[], bytes: number): number {
  const sim = new Simulation({ seed: 'calibrate' });
  const node = new Node(sim, spec);
  // Each rank first-touches its own buffer, on its own NUMA node; the ring is placed on the writer's.
  const numaOf = (core: number) => spec.cores.find((c) => c.id === core)?.numa;
  const src = range(node.allocate('src', bytes, 0, numaOf(writer)));
  const ring = range(node.allocate('ring', bytes, -1, numaOf(writer)));
  const dst = range(node.allocate('dst', bytes, 1, numaOf(reader)));
  let span = 0;
  sim.spawn(
    'writer and reader',
    (function* () {
      for (let it = 0; it < 3; it++) {
        const start = sim.now;
        yield* node.copy(writer, src, ring, { rank: 0, label: 'copy-in' });
        span = sim.now - start;
        yield* node.copy(reader, ring, dst, { rank: 1, label: 'copy-out' });
      }
    })(),
  );
  sim.run();
  return span;
}
