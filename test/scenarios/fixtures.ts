// Hand-built machines, a fake catalogue and a fake runner for the scenario tests, so they depend
// on neither the hardware presets nor the simulator.
import { buildListing } from '../../algorithms/listing.ts';
import { InputError } from '../../common/input-error.ts';
import type { CoreSpec, MachineSpec } from '../../hardware/spec.ts';
import type { MachineResolver } from '../../scenarios/loader.ts';
import type { Point, PointResult } from '../../scenarios/point.ts';

/** Operations and algorithms of metadata alone: the scenario layer never runs a program. */
export const fakeCatalogue = buildListing(
  [
    { name: 'test-op', description: 'A rooted test operation', rooted: true },
    { name: 'test-ring', description: 'A test operation without root', rooted: false },
  ],
  [
    {
      name: 'test-op:linear',
      operation: 'test-op',
      description: 'Root talks to every rank',
      params: [
        { name: 'segment', kind: 'bytes', default: 65536, description: 'pipeline segment' },
        { name: 'depth', kind: 'integer', default: 2, min: 1, description: 'tree depth' },
        {
          name: 'direction',
          kind: 'choice',
          default: 'read',
          choices: ['read', 'write'],
          description: 'copy direction',
        },
        { name: 'async', kind: 'boolean', default: false, description: 'asynchronous copies' },
        { name: 'factor', kind: 'number', default: 1.5, description: 'a real-valued knob' },
      ],
    },
    { name: 'test-op:tree', operation: 'test-op', description: 'Binomial tree', params: [] },
    { name: 'test-ring:ring', operation: 'test-ring', description: 'Ring', params: [] },
  ],
);

/**
 * `packages` packages with `perPackage` cores each; OS indices interleave across packages
 * (core i on package i % packages), as Linux numbers many two-socket Xeons. One NUMA node per
 * package unless `numaPerPackage` splits each package.
 */
export function fakeMachine(name: string, packages: number, perPackage: number, numaPerPackage = 1): MachineSpec {
  const cores: CoreSpec[] = [];
  for (let i = 0; i < packages * perPackage; i++) {
    const pkg = i % packages;
    const index = Math.floor(i / packages);
    const numa = pkg * numaPerPackage + Math.floor((index * numaPerPackage) / perPackage);
    cores.push({ id: i, package: pkg, numa, frequencyGHz: 2, threads: 1 });
  }
  const numaCount = packages * numaPerPackage;
  return {
    name,
    description: `${packages}x${perPackage} test machine`,
    origin: 'test',
    packages: Array.from({ length: packages }, (_, id) => ({ id, model: 'Test CPU' })),
    hubs: [],
    numaNodes: Array.from({ length: numaCount }, (_, id) => ({
      id,
      attach: `pkg${Math.floor(id / numaPerPackage)}`,
      memoryBytes: 2 ** 30,
      bandwidth: 10,
      latencyNs: 80,
      kind: 'dram' as const,
    })),
    cores,
    caches: [],
    links: [],
    routing: { kind: 'shortest' },
    ioBuses: [],
    nics: [],
    costs: { copyBandwidth: 5, reduceBandwidth: 2 },
    kernel: {
      version: '0',
      mechanisms: { cma: true, knem: true, xpmem: false, limic: false, ioat: false },
      syscallNs: 100,
      pageBytes: 4096,
      pinPerPageNs: 50,
      cmaLockMode: 'exclusive',
      params: {},
    },
    guessed: [],
  };
}

export const MACHINES: Record<string, MachineSpec> = {
  'two-socket': fakeMachine('two-socket', 2, 4),
  'sub-numa': fakeMachine('sub-numa', 1, 8, 2),
};

export const fakeResolver: MachineResolver = (ref) => {
  // Only the table's own names: 'toString' is no machine (the fuzz test names such fields).
  const m = Object.hasOwn(MACHINES, ref) ? MACHINES[ref] : undefined;
  if (!m) throw new InputError(`unknown machine preset '${ref}'`);
  return m;
};

/** Deterministic stand-in for the simulator: time grows with size, linear costs twice the tree. */
export function fakeRunner(point: Point): PointResult {
  const perByte = point.algorithm.endsWith(':linear') ? 0.5 : 0.25;
  const meanNs = 1000 + point.bytes * perByte * point.cores.length;
  return {
    meanNs,
    minNs: meanNs * 0.9,
    maxNs: meanNs * 1.1,
    breakdown: point.algorithm.endsWith(':linear') ? { copy: 0.75, syscall: 0.25 } : { copy: 0.5, 'lock-wait': 0.5 },
    rankTimeNs: meanNs * point.cores.length,
    libraryBytes: point.algorithm.endsWith(':linear') ? 0 : 4096 * point.cores.length,
  };
}
