// A small world for the kernel mechanism tests: the round-number machine from test/helpers, ranks
// on cores 0..n-1, buffers placed on their rank's NUMA node.
import { expect } from 'vitest';
import type { KernelSpec, MachineSpec } from '../../hardware/spec.ts';
import type { Program } from '../../sim/engine/program.ts';
import { Simulation } from '../../sim/engine/simulation.ts';
import type { Buffer, Range } from '../../sim/node/buffer.ts';
import { Content, expectedFresh, piecesEqual } from '../../sim/node/content.ts';
import { MechanismError } from '../../sim/node/errors.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { tinyMachine } from '../helpers/machines.ts';
import { runPrograms } from '../helpers/run-programs.ts';

export interface Setup {
  sim: Simulation;
  node: Node;
  world: World;
  spec: MachineSpec;
}

/** Two packages of four cores: syscall 100 ns, pin 100 ns a page, 4 KiB pages, cores copy at 8 B/ns. */
export function setup(kernel: Partial<KernelSpec> = {}, ranks = 8): Setup {
  const base = tinyMachine({ packages: 2, coresPerPackage: 4 });
  const spec: MachineSpec = {
    ...base,
    kernel: { ...base.kernel, ...kernel, params: { ...base.kernel.params, ...kernel.params } },
  };
  const sim = new Simulation({ seed: 1 });
  const node = new Node(sim, spec, { keepTrace: true });
  const world = new World(
    node,
    Array.from({ length: ranks }, (_, i) => i),
  );
  return { sim, node, world, spec };
}

/** A buffer of `rank`, on its NUMA node; filled with fresh data named `name` when `fill` is set. */
export function alloc(s: Setup, rank: number, name: string, bytes: number, fill = false): Buffer {
  const buf = s.node.allocate(`r${rank}.${name}`, bytes, rank, s.node.topo.core(s.world.cores[rank]).numa);
  if (fill) buf.content = Content.fresh(bytes, name);
  return buf;
}

/** Runs each program as its own process from time 0 (each made when its process starts); returns the end time of each. */
export function runAll(s: Setup, programs: Array<() => Program<void>>): number[] {
  return runPrograms(
    s.sim,
    programs.map((p) =>
      (function* () {
        yield* p();
      })(),
    ),
    (i) => `p${i}`,
  );
}

/** Runs `run` in a fresh world (kernel overrides applied) and returns the MechanismError it must throw. */
export function mechanismError(run: (s: Setup) => Program<unknown>, kernel: Partial<KernelSpec> = {}): MechanismError {
  const s = setup(kernel);
  let error: unknown;
  runAll(s, [
    function* () {
      try {
        yield* run(s);
      } catch (e) {
        error = e;
      }
    },
  ]);
  expect(error).toBeInstanceOf(MechanismError);
  return error as MechanismError;
}

/**
 * ns `pinner`'s core pays, per page of `owner`'s memory it pins, when no cache holds the page's
 * struct page (never pinned in this run, or not since node.clearCaches()): a miss to the memory map
 * of the NUMA node of the owner's core, across the links from the pinner's package
 * (sim/kernel/page-table-locks.ts). On the tiny machine: 80 ns (memory latency) for a pinner on the
 * owner's package, 80 + 50 (one link) for one on the other package. A page pinned again by the
 * same core costs nothing more; by another core, one line transfer (topo.lineLatency).
 */
export function structPageMiss(s: Setup, pinner: number, owner: number): number {
  const topo = s.node.topo;
  const home = topo.numa(topo.core(s.world.cores[owner]).numa);
  return home.latencyNs + topo.routeLatency(topo.coreVertex(s.world.cores[pinner]), home.attach);
}

/** Total rank-time of one kind of trace step. */
export function total(s: Setup, kind: string): number {
  return s.node.trace.totalsByKind()[kind] ?? 0;
}

/**
 * Checks that the bytes of `dst` segments, read in order, are the bytes of `src` segments read in
 * order, where every `src` buffer was filled fresh with its own name. Walks both lists in runs that
 * stay inside one segment of each, so each run is one contiguous piece of one source.
 */
export function deliveredInOrder(src: Range[], dst: Range[]): boolean {
  let i = 0,
    j = 0,
    usedSrc = 0,
    usedDst = 0;
  while (i < src.length && j < dst.length) {
    const n = Math.min(src[i].bytes - usedSrc, dst[j].bytes - usedDst);
    if (n > 0) {
      const got = dst[j].buf.content.slice(dst[j].offset + usedDst, n);
      const want = expectedFresh(sourceName(src[i].buf), src[i].offset + usedSrc, n);
      if (!piecesEqual(got, want)) return false;
    }
    usedSrc += n;
    usedDst += n;
    if (usedSrc === src[i].bytes) {
      i++;
      usedSrc = 0;
    }
    if (usedDst === dst[j].bytes) {
      j++;
      usedDst = 0;
    }
  }
  return true;
}

/** The name a buffer was filled with by `alloc(..., fill = true)`. */
function sourceName(buf: Buffer): string {
  return buf.name.slice(buf.name.indexOf('.') + 1);
}
