// Turns what an importer found into a MachineSpec: decides where each memory node and I/O bus hangs
// in the interconnect graph, which links exist, and fills every missing number from the processor
// table's row for the machine's processor, else from IMPORT_DEFAULTS, recording the field path of
// each default in `guessed`.
import { InputError } from '../../common/input-error.ts';
import { validateMachine } from '../validate.ts';
import { IMPORT_DEFAULTS, cacheDefaults } from '../import-defaults.ts';
import {
  packageVertex,
  type CacheSpec,
  type CoreSpec,
  type HubSpec,
  type IoBusSpec,
  type MachineSpec,
  type NicSpec,
  type NumaNodeSpec,
  type PackageSpec,
  type VertexId,
} from '../spec.ts';
import type { ProcessorRow } from '../processor-table.ts';
import type { FoundMachine, FoundNuma } from './found.ts';
import { buildLinks, type LinkVertex } from './links.ts';
import { cacheFigures, coreCosts, dramFigures, machineProcessor, packageShare } from './processor-figures.ts';

export function assembleMachine(found: FoundMachine): MachineSpec {
  if (found.cores.length === 0) {
    throw new InputError('no processing units (PU objects or CPUs) found: nothing to simulate', { file: found.source });
  }
  // Each step reads what the earlier ones placed; `guessed` follows the same order.
  const a = new Assembly(found);
  const packages = a.packages();
  a.placeCores();
  const numaNodes = a.numaNodes();
  const cores = a.cores(numaNodes);
  const caches = a.caches(cores);
  const distances = reorderDistances(
    found,
    numaNodes.map((n) => n.id),
  );
  const ioBuses = a.ioBuses();
  const nics = a.nics();
  const links = buildLinks(
    a.linkVertices,
    distances ? { ids: numaNodes.map((n) => n.id), values: distances } : undefined,
    a.guessed,
    a.row?.link,
  );

  const frequency = cores[0].frequencyGHz;
  if (!a.row) a.guessed.push('costs.copyBandwidth', 'costs.reduceBandwidth', 'costs.missConcurrency');
  const kernel = kernelSpec(found, a.guessed);
  const machine: MachineSpec = {
    name: found.name,
    description: describe(packages.length, cores, numaNodes, nics.length),
    origin: found.origin,
    packages,
    hubs: a.hubs,
    numaNodes,
    cores,
    caches,
    links,
    routing: { kind: 'shortest' },
    ioBuses,
    nics,
    costs: a.row
      ? coreCosts(a.row, frequency)
      : {
          copyBandwidth: IMPORT_DEFAULTS.core.copyBytesPerCycle * frequency,
          reduceBandwidth: IMPORT_DEFAULTS.core.reduceBytesPerCycle * frequency,
          missConcurrency: IMPORT_DEFAULTS.core.missConcurrency,
        },
    kernel,
    guessed: a.guessed,
  };
  if (distances) machine.distances = distances;
  if (a.row) machine.processor = a.row.name;
  // What a machine file must hold, an import must hold too (a NUMA node that reports no memory, a
  // broken export): the source names the file, the spec path the part of it.
  validateMachine(machine, (field) => ({ file: found.source, field }));
  return machine;
}

/** What the steps of assembleMachine share: renumbered packages, cores by CPU, graph vertices. */
class Assembly {
  readonly guessed: string[] = [];
  readonly hubs: HubSpec[] = [];
  readonly linkVertices: LinkVertex[] = [];
  /** The processor-table row of the machine's processor, once packages() has found it. */
  row: ProcessorRow | undefined;
  /** Packages with cores, in OS order. */
  private osPackages: FoundMachine['packages'] = [];
  private renumber = new Map<number, number>();
  /** Packages renumbered 0..n-1. */
  private foundPackages: FoundMachine['packages'] = [];
  private sortedCores: FoundMachine['cores'] = [];
  private corePackage: number[] = [];
  /** Core id (its first hardware thread) of every hardware thread. */
  private readonly coreOfCpu = new Map<number, number>();
  private packageOfCore = new Map<number, number>();
  private foundNuma: FoundNuma[] = [];

  constructor(private readonly found: FoundMachine) {}

  private packageHint(os: number | undefined): number | undefined {
    return os === undefined ? undefined : this.renumber.get(os);
  }

  private vertexOf(id: VertexId): LinkVertex {
    return this.linkVertices.find((v) => v.id === id)!;
  }

  /**
   * Packages, renumbered 0..n-1 in OS order: OS indices can be sparse (offline or disallowed
   * sockets) and a package whose cores are all absent holds nothing to simulate.
   */
  packages(): PackageSpec[] {
    const { found, guessed } = this;
    this.osPackages = [...found.packages]
      .sort((a, b) => a.id - b.id)
      .filter((p) => found.cores.some((c) => c.package === p.id));
    this.renumber = new Map(this.osPackages.map((p, i) => [p.id, i]));
    this.foundPackages = this.osPackages.map((p, i) => ({ ...p, id: i }));
    this.row = machineProcessor(this.foundPackages);
    if (this.foundPackages.length === 0) {
      this.foundPackages.push({ id: 0 });
      guessed.push('packages[0]');
    }
    this.linkVertices.push(
      ...this.foundPackages.map((p): LinkVertex => ({
        id: packageVertex(p.id),
        kind: 'package',
        packages: [p.id],
        numa: [],
      })),
    );
    return this.foundPackages.map((p, i) => {
      if (p.model === undefined) guessed.push(`packages[${i}].model`);
      return { id: p.id, model: p.model ?? 'unknown CPU' };
    });
  }

  /** Cores, named by their first hardware thread, in OS order, each in a package. */
  placeCores(): void {
    this.sortedCores = [...this.found.cores].sort((a, b) => a.pus[0] - b.pus[0]);
    for (const core of this.sortedCores) for (const pu of core.pus) this.coreOfCpu.set(pu, core.pus[0]);
    this.corePackage = this.sortedCores.map((core, i) => {
      const pkg = this.packageHint(core.package);
      if (pkg !== undefined) return pkg;
      if (this.osPackages.length > 0) this.guessed.push(`cores[${i}].package`);
      return this.foundPackages[0].id;
    });
    this.packageOfCore = new Map(this.sortedCores.map((c, i) => [c.pus[0], this.corePackage[i]]));
  }

  private packagesOfCpus(cpus: number[]): number[] {
    const set = new Set<number>();
    for (const cpu of cpus) {
      const core = this.coreOfCpu.get(cpu);
      if (core !== undefined) set.add(this.packageOfCore.get(core)!);
    }
    return [...set].sort((a, b) => a - b);
  }

  /** NUMA nodes, each on the package it is local to or on a hub of its own; cores without any get one node covering everything. */
  numaNodes(): NumaNodeSpec[] {
    const { guessed } = this;
    this.foundNuma = [...this.found.numaNodes].sort((a, b) => a.id - b.id);
    if (this.foundNuma.length === 0) {
      this.foundNuma.push({ id: 0, cpus: [...this.coreOfCpu.keys()], kind: 'dram' });
      guessed.push('numaNodes[0]');
    }
    const placed = this.foundNuma.map((node) => this.placeNuma(node));
    const figures = this.memoryFigures(placed);
    return this.foundNuma.map((node, i) => {
      const { attach, covered, on } = placed[i];
      if (on !== 'package') {
        // Shared by several packages (a front-side-bus memory hub) or local to none (memory-only).
        const shared = on === 'shared';
        this.hubs.push({
          id: attach,
          description: shared
            ? `memory hub of NUMA node ${node.id}, shared by packages ${covered.join(', ')}`
            : `memory-only NUMA node ${node.id} (no local cores)`,
        });
        this.linkVertices.push({
          id: attach,
          kind: shared ? 'shared-memory' : 'memory-only',
          packages: shared ? covered : [],
          numa: [],
        });
      }
      this.vertexOf(attach).numa.push(node.id);
      const defaults = figures[i] ?? (node.kind === 'hbm' ? IMPORT_DEFAULTS.hbm : IMPORT_DEFAULTS.memory);
      if (node.memoryBytes === undefined) guessed.push(`numaNodes[${i}].memoryBytes`);
      if (node.bandwidth === undefined && !figures[i]) guessed.push(`numaNodes[${i}].bandwidth`);
      if (node.latencyNs === undefined && !figures[i]) guessed.push(`numaNodes[${i}].latencyNs`);
      const writeCost = node.kind === 'dram' ? figures[i]?.writeCost : undefined;
      return {
        id: node.id,
        attach,
        memoryBytes: node.memoryBytes ?? IMPORT_DEFAULTS.memory.bytes,
        bandwidth: node.bandwidth ?? defaults.bandwidth,
        latencyNs: node.latencyNs ?? defaults.latencyNs,
        ...(writeCost !== undefined ? { writeCost } : {}),
        kind: node.kind,
      };
    });
  }

  /** Where a NUMA node hangs: on the one package it is local to, else on a hub of its own. */
  private placeNuma(node: FoundNuma): {
    attach: VertexId;
    covered: number[];
    on: 'package' | 'shared' | 'memory-only';
  } {
    const covered = this.packagesOfCpus(node.cpus);
    if (covered.length === 1) return { attach: packageVertex(covered[0]), covered, on: 'package' };
    const hinted = covered.length === 0 ? this.packageHint(node.packageHint) : undefined;
    if (hinted !== undefined) return { attach: packageVertex(hinted), covered, on: 'package' };
    return { attach: `numa${node.id}`, covered, on: covered.length > 1 ? 'shared' : 'memory-only' };
  }

  /**
   * Each node's bandwidth and latency from the processor table: DRAM nodes on one package split
   * its channels; a memory hub shared over front-side buses is the chipset's memory; a memory-only
   * DRAM node is one socket's; high-bandwidth nodes split their package's. Undefined where the
   * table says nothing.
   */
  private memoryFigures(
    placed: { attach: VertexId; on: 'package' | 'shared' | 'memory-only' }[],
  ): ({ bandwidth: number; latencyNs: number; writeCost?: number } | undefined)[] {
    const { row } = this;
    const dramOn = new Map<VertexId, number>();
    let hbmNodes = 0;
    this.foundNuma.forEach((node, i) => {
      if (node.kind === 'hbm') hbmNodes++;
      else if (placed[i].on === 'package') dramOn.set(placed[i].attach, (dramOn.get(placed[i].attach) ?? 0) + 1);
    });
    return this.foundNuma.map((node, i) => {
      if (!row) return undefined;
      if (node.kind === 'hbm') {
        return row.hbm ? packageShare(row.hbm, hbmNodes / Math.max(1, this.foundPackages.length)) : undefined;
      }
      const { on, attach } = placed[i];
      if (on === 'shared' && row.link.kind !== 'fsb') return undefined;
      return dramFigures(row, on === 'package' ? dramOn.get(attach)! : 1);
    });
  }

  cores(numaNodes: NumaNodeSpec[]): CoreSpec[] {
    return this.sortedCores.map((core, i) => {
      const id = core.pus[0];
      const pkg = this.corePackage[i];
      let numa = pickLocalNuma(id, core.pus, this.foundNuma);
      if (numa === undefined && core.numaHint !== undefined && this.foundNuma.some((n) => n.id === core.numaHint))
        numa = core.numaHint;
      if (numa === undefined) {
        // No node claims this core (its node is offline or disallowed): take its package's memory,
        // else the first node, and say so.
        numa = numaNodes.find((n) => n.attach === packageVertex(pkg) && n.kind === 'dram')?.id ?? numaNodes[0].id;
        this.guessed.push(`cores[${i}].numa`);
      }
      const frequency = core.frequencyGHz ?? this.foundPackages.find((p) => p.id === pkg)?.frequencyGHz;
      if (frequency === undefined) this.guessed.push(`cores[${i}].frequencyGHz`);
      return {
        id,
        package: pkg,
        numa,
        frequencyGHz: frequency ?? this.row?.clockGHz ?? IMPORT_DEFAULTS.core.frequencyGHz,
        threads: core.pus.length,
      };
    });
  }

  /** Data caches by level, then by first core; bandwidth and latency from the processor table, else the defaults. */
  caches(cores: CoreSpec[]): CacheSpec[] {
    const allCoreIds = cores.map((c) => c.id);
    const perLevel = new Map<number, number>();
    const caches: CacheSpec[] = [];
    const sortedCaches = this.found.caches
      .map((cache) => ({ cache, cores: coresOf(cache.cpus, this.coreOfCpu) }))
      .filter(({ cache, cores: cs }) => cache.memorySide || cs.length > 0)
      .sort((a, b) => a.cache.level - b.cache.level || (a.cores[0] ?? -1) - (b.cores[0] ?? -1));
    const memorySideCount = sortedCaches.filter(({ cache }) => cache.memorySide).length;
    const perPackage = memorySideCount / Math.max(1, this.foundPackages.length);
    // The model has one memory-side cache, for every core (docs/machine-format.md). hwloc lists one
    // per quadrant or sub-NUMA cluster (KNL in SNC-4 cache mode), which together cache all of
    // memory: they become one, of their summed size and bandwidth (the quadrants' locality is lost).
    let memorySide: CacheSpec | undefined;
    for (const { cache, cores: sharers } of sortedCaches) {
      const clock = cores.find((c) => c.id === sharers[0])?.frequencyGHz ?? cores[0].frequencyGHz;
      const figures: { bandwidth: number; latencyNs: number; victim?: true } | undefined = !this.row
        ? undefined
        : cache.memorySide
          ? this.row.memorySideCache && packageShare(this.row.memorySideCache, perPackage)
          : cacheFigures(this.row, cache.level, sharers.length, clock);
      const d = figures ?? cacheDefaults(cache.level);
      if (cache.memorySide && memorySide) {
        memorySide.sizeBytes += cache.sizeBytes;
        memorySide.bandwidth += d.bandwidth;
        continue;
      }
      const n = perLevel.get(cache.level) ?? 0;
      perLevel.set(cache.level, n + 1);
      const index = caches.length;
      if (!figures) this.guessed.push(`caches[${index}].bandwidth`, `caches[${index}].latencyNs`);
      const spec: CacheSpec = {
        id: `L${cache.level}${cache.memorySide ? 'm' : ''}.${n}`,
        level: cache.level,
        sizeBytes: cache.sizeBytes,
        cores: cache.memorySide ? allCoreIds : sharers,
        bandwidth: d.bandwidth,
        latencyNs: d.latencyNs,
        ...(cache.memorySide ? { memorySide: true } : {}),
        ...(figures?.victim ? { victim: true } : {}),
      };
      if (cache.memorySide) memorySide = spec;
      caches.push(spec);
    }
    return caches;
  }

  /**
   * I/O buses hang off the package they are local to, else a memory hub shared by exactly those
   * packages, else an I/O hub reachable from every package.
   */
  ioBuses(): IoBusSpec[] {
    const { foundPackages } = this;
    return this.found.buses.map((bus, i) => {
      const covered = this.packagesOfCpus(bus.cpus);
      let attach: VertexId | undefined;
      if (covered.length === 1) attach = packageVertex(covered[0]);
      else if (covered.length === 0 && this.packageHint(bus.packageHint) !== undefined)
        attach = packageVertex(this.packageHint(bus.packageHint)!);
      else if (foundPackages.length === 1) attach = packageVertex(foundPackages[0].id);
      else {
        const want = covered.length > 0 ? covered : foundPackages.map((p) => p.id);
        attach = this.linkVertices.find((v) => v.kind === 'shared-memory' && sameSet(v.packages, want))?.id;
        if (attach === undefined) {
          attach = 'iohub';
          if (!this.hubs.some((h) => h.id === attach)) {
            this.hubs.push({ id: attach, description: 'I/O hub reachable from every package' });
            this.linkVertices.push({ id: attach, kind: 'io', packages: foundPackages.map((p) => p.id), numa: [] });
          }
        }
      }
      if (bus.bandwidth === undefined) this.guessed.push(`ioBuses[${i}].bandwidth`);
      return { id: bus.id, attach, bandwidth: bus.bandwidth ?? IMPORT_DEFAULTS.io.busBandwidth };
    });
  }

  /**
   * Each NIC's bandwidth: the wire speed its source states (a port's rate or speed, else its product
   * name: "82576 Gigabit", "X710 10GbE"), else the kind's default, capped by its PCIe link. Only a
   * stated wire speed makes it sourced: a PCIe link below a guessed one bounds the NIC, it does not
   * measure it.
   */
  nics(): NicSpec[] {
    return this.found.nics.map((nic, i) => {
      const stated = nic.wireBandwidth ?? wireSpeedInName(nic.model);
      const wire = stated ?? IMPORT_DEFAULTS.nic[nic.kind];
      const link = nic.linkBandwidth !== undefined && nic.linkBandwidth > 0 ? nic.linkBandwidth : Infinity;
      if (stated === undefined) this.guessed.push(`nics[${i}].bandwidth`);
      return { id: nic.id, model: nic.model, bus: nic.bus, bandwidth: Math.min(wire, link) };
    });
  }
}

/** The wire speed (GB/s per direction) an Ethernet product name states: "Gigabit" alone is 1 Gb/s;
 *  "10-Gigabit", "10GbE", "25GbE", "40 Gigabit" give theirs. Undefined when the name states none. */
export function wireSpeedInName(model: string | undefined): number | undefined {
  if (model === undefined) return undefined;
  // Only the Ethernet rates (IEEE 802.3): in "82576 Gigabit" the number is the controller's.
  const m = /(?:^|[^\d.])(1|2\.5|5|10|25|40|50|100|200|400)\s*-?\s*(?:Gigabit|GbE|Gb\/s|GigE)\b/i.exec(model);
  if (m) return Number(m[1]) / 8;
  return /\bGigabit\b|\bGigE\b|\bGbE\b/i.test(model) ? 1 / 8 : undefined;
}

/** The node whose cpus contain the core: ordinary DRAM before HBM, then lowest id. */
function pickLocalNuma(id: number, pus: number[], nodes: FoundNuma[]): number | undefined {
  const holding = nodes.filter((n) => n.cpus.includes(id) || pus.some((p) => n.cpus.includes(p)));
  holding.sort((a, b) => (a.kind === b.kind ? a.id - b.id : a.kind === 'dram' ? -1 : 1));
  return holding[0]?.id;
}

function coresOf(cpus: number[], coreOfCpu: Map<number, number>): number[] {
  const set = new Set<number>();
  for (const cpu of cpus) {
    const core = coreOfCpu.get(cpu);
    if (core !== undefined) set.add(core);
  }
  return [...set].sort((a, b) => a - b);
}

function sameSet(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** The found matrix in the order of `ids`, or undefined where it does not cover every node. */
function reorderDistances(found: FoundMachine, ids: number[]): number[][] | undefined {
  const d = found.distances;
  if (!d) return undefined;
  const pos = ids.map((id) => d.ids.indexOf(id));
  if (pos.some((p) => p < 0)) return undefined;
  return pos.map((i) => pos.map((j) => d.values[i][j]));
}

function kernelSpec(found: FoundMachine, guessed: string[]): MachineSpec['kernel'] {
  const k = IMPORT_DEFAULTS.kernel;
  const release = found.kernelRelease?.trim();
  const match = release ? /^(\d+)\.(\d+)/.exec(release) : null;
  let cma = true;
  if (match) {
    const major = Number(match[1]);
    const minor = Number(match[2]);
    cma = major > k.cmaSinceMajor || (major === k.cmaSinceMajor && minor >= k.cmaSinceMinor);
  } else {
    guessed.push('kernel.version', 'kernel.mechanisms.cma');
  }
  const m = found.mechanisms ?? {};
  for (const name of ['knem', 'xpmem', 'limic', 'ioat'] as const) {
    if (m[name] === undefined) guessed.push(`kernel.mechanisms.${name}`);
  }
  const power = /^(ppc|power)/i.test(found.architecture ?? '');
  guessed.push('kernel.syscallNs', 'kernel.pageBytes', 'kernel.pinPerPageNs', 'kernel.cmaLockMode');
  return {
    version: release || k.version,
    mechanisms: { cma, knem: m.knem ?? false, xpmem: m.xpmem ?? false, limic: m.limic ?? false, ioat: m.ioat ?? false },
    syscallNs: k.syscallNs,
    pageBytes: power ? k.pageBytesPower : k.pageBytes,
    pinPerPageNs: k.pinPerPageNs,
    cmaLockMode: k.cmaLockMode,
    params: {},
  };
}

function describe(packages: number, cores: CoreSpec[], numa: NumaNodeSpec[], nics: number): string {
  const threads = cores.reduce((sum, c) => sum + c.threads, 0);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts = [
    plural(packages, 'package'),
    plural(cores.length, 'core'),
    plural(threads, 'thread'),
    plural(numa.length, 'NUMA node'),
  ];
  if (nics > 0) parts.push(plural(nics, 'NIC'));
  return parts.join(', ');
}
