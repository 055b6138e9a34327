// Small hand-written machines with round numbers, so tests can compute expected times by hand.
import type { MachineSpec } from '../../hardware/spec.ts';

export interface TinyOptions {
  packages?: number;
  coresPerPackage?: number;
  copyBandwidth?: number;
  memoryBandwidth?: number;
  linkBandwidth?: number;
  l3Bytes?: number;
  l3Bandwidth?: number;
}

/** Packages of cores, one NUMA node and one L3 per package, a private L2 per core, a full mesh of links. */
export function tinyMachine(o: TinyOptions = {}): MachineSpec {
  const packages = o.packages ?? 2;
  const perPackage = o.coresPerPackage ?? 2;
  const cores = [];
  const caches = [];
  for (let p = 0; p < packages; p++) {
    const ids = [];
    for (let c = 0; c < perPackage; c++) {
      const id = p * perPackage + c;
      ids.push(id);
      cores.push({ id, package: p, numa: p, frequencyGHz: 2, threads: 1 });
      caches.push({ id: `L2#${id}`, level: 2, sizeBytes: 256 * 1024, cores: [id], bandwidth: 64, latencyNs: 4 });
    }
    caches.push({
      id: `L3#${p}`,
      level: 3,
      sizeBytes: o.l3Bytes ?? 8 * 1024 * 1024,
      cores: ids,
      bandwidth: o.l3Bandwidth ?? 40,
      latencyNs: 15,
    });
  }
  const links = [];
  for (let a = 0; a < packages; a++) {
    for (let b = a + 1; b < packages; b++)
      links.push({ name: `L${a}-${b}`, a: `pkg${a}`, b: `pkg${b}`, bandwidth: o.linkBandwidth ?? 4, latencyNs: 50 });
  }
  return {
    name: 'tiny',
    description: 'hand-written test machine',
    origin: 'test',
    packages: Array.from({ length: packages }, (_, id) => ({ id, model: 'test' })),
    hubs: [],
    numaNodes: Array.from({ length: packages }, (_, id) => ({
      id,
      attach: `pkg${id}`,
      memoryBytes: 1 << 30,
      bandwidth: o.memoryBandwidth ?? 10,
      latencyNs: 80,
      kind: 'dram' as const,
    })),
    cores,
    caches,
    links,
    routing: { kind: 'shortest' },
    ioBuses: [],
    nics: [],
    costs: { copyBandwidth: o.copyBandwidth ?? 8, reduceBandwidth: 4 },
    kernel: {
      version: 'test',
      mechanisms: { cma: true, knem: true, xpmem: true, limic: true, ioat: false },
      syscallNs: 100,
      pageBytes: 4096,
      pinPerPageNs: 100,
      cmaLockMode: 'exclusive',
      params: {},
    },
    guessed: [],
  };
}

/** `spec` (a copy of Dancer, whose cores 0-3 share an L3) as a virtual machine could show it: core 1
 *  with an L3 of its own, listed first, so that taking it out moves every other cache's index, and
 *  no peer latency on core 0's L3 (calibration fits one only where it finds the two sharing). */
export function coreOneApart(spec: MachineSpec): MachineSpec {
  const l3 = spec.caches.find((c) => c.level === 3 && c.cores.includes(0))!;
  l3.cores = l3.cores.filter((c) => c !== 1);
  delete l3.peerLatencyNs;
  spec.caches.unshift({ ...structuredClone(l3), id: 'L3#own1', cores: [1] });
  return spec;
}
