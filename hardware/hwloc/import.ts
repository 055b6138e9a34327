// hwloc XML (v1 and v2 formats, as written by `lstopo --of xml`) to MachineSpec.
import { InputError } from '../../common/input-error.ts';
import { baseName } from '../../common/paths.ts';
import { onOneLine } from '../../common/printable.ts';
import type { MachineSpec } from '../spec.ts';
import { assembleMachine } from './assemble.ts';
import { readDistances } from './distances.ts';
import type { FoundCache, FoundCore, FoundMachine, FoundNuma, FoundPackage } from './found.ts';
import { readIo } from './io.ts';
import { readMemoryAttributes } from './memattrs.ts';
import { at, Attrs, buildObject, type HwObject } from './objects.ts';
import { parseXml, type XmlElement } from './xml.ts';
import { frequencyFromModel } from './model-frequency.ts';

export interface HwlocImportOptions {
  /**
   * Which machine to take from a file that holds several under one System (hwloc 1.x, as written
   * by hwloc-assembler): 0-based, in document order. The CLI flag is `--hwloc-machine N`.
   */
  hwlocMachine?: number;
}

/** Reads an hwloc topology file. `file` names the source in errors and in `origin`. */
export function importHwlocXml(text: string, file: string, options: HwlocImportOptions = {}): MachineSpec {
  rejectHtml(text, file);
  try {
    return importTopology(parseXml(text, file), file, options);
  } catch (error) {
    // A pathological nesting depth exhausts the stack; report it as the input problem it is.
    if (error instanceof RangeError) throw new InputError('XML nesting too deep for an hwloc topology', { file });
    throw error;
  }
}

/** HTML is rarely well-formed XML, so recognise a saved web page before parsing it. */
function rejectHtml(text: string, file: string): void {
  const m = /^\uFEFF?\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(<!doctype\s+html|<html)/i.exec(text);
  if (!m) return;
  const offset = m.index + m[0].length - m[1].length;
  const before = text.slice(0, offset).split('\n');
  throw new InputError('this is an HTML page, not hwloc XML (save the raw file, e.g. from `lstopo --of xml`)', {
    file,
    line: before.length,
    column: before[before.length - 1].length + 1,
  });
}

/** The object tree of one machine, with what every later step asks of it. */
interface Tree {
  attrs: Attrs;
  all: HwObject[];
  packageIds: Map<HwObject, number>;
  numaIds: Map<HwObject, number>;
  pusOf: (o: HwObject) => number[];
  cpusOf: (o: HwObject) => number[];
  packageOf: (o: HwObject) => number | undefined;
}

function importTopology(topology: XmlElement, file: string, options: HwlocImportOptions): MachineSpec {
  const rootEl = topologyRoot(topology, file);
  const version = /^(\d+)/.exec(topology.attrs.get('version') ?? '');
  const formatMajor = version ? Number(version[1]) : 1;
  const top = buildObject(rootEl, file);
  const root = pickMachine(top, file, options.hwlocMachine);
  const tree = readTree(root, file);
  const { attrs } = tree;

  const info = (name: string) =>
    topology.children.find((c) => c.name === 'info' && c.attrs.get('name') === name)?.attrs.get('value') ??
    root.infos.get(name);
  const distances = readDistances(
    topology,
    [...tree.numaIds].map(([o, id]) => ({ id, gp: attrs.int(o.el, 'gp_index') })),
    attrs,
  );
  const io = readIo(root, { attrs, formatMajor, cpusOf: tree.cpusOf, packageOf: tree.packageOf });
  const found: FoundMachine = {
    source: file,
    name: machineName(file, root === top ? undefined : root),
    origin: file,
    packages: readPackages(tree),
    numaNodes: readNumaNodes(tree, readMemoryAttributes(topology, attrs)),
    cores: readCores(tree),
    caches: readCaches(tree.all, attrs, tree.pusOf, tree.cpusOf),
    buses: io.buses,
    nics: io.nics,
  };
  if (distances) found.distances = distances;
  const release = info('OSRelease');
  if (release) found.kernelRelease = release;
  const arch = info('Architecture');
  if (arch) found.architecture = arch;
  return assembleMachine(found);
}

/** The root <object> of a <topology>, or an error saying what the file is instead. */
function topologyRoot(topology: XmlElement, file: string): XmlElement {
  if (topology.name.toLowerCase() === 'html') {
    throw new InputError(
      'this is an HTML page, not hwloc XML (save the raw file, e.g. from `lstopo --of xml`)',
      at(topology, file),
    );
  }
  if (topology.name !== 'topology') {
    throw new InputError(
      `root element is <${topology.name}>, not <topology>: not an hwloc XML topology`,
      at(topology, file),
    );
  }
  const rootEl = topology.children.find((c) => c.name === 'object');
  if (!rootEl) throw new InputError('<topology> holds no <object>: empty hwloc topology', at(topology, file));
  return rootEl;
}

/**
 * hwloc 1.x could hold several machines under one System object (hwloc-assembler); each numbers
 * its PUs from 0, so they cannot be read as one node. Take the one asked for, or say what is there.
 */
function pickMachine(root: HwObject, file: string, wanted: number | undefined): HwObject {
  const machines = root.type === 'System' ? root.children.filter((c) => c.type === 'Machine') : [];
  if (machines.length < 2) {
    if (wanted !== undefined && wanted !== 0) {
      throw new InputError(
        `--hwloc-machine ${wanted}: this hwloc file holds one machine (use 0 or leave the option out)`,
        at(root.el, file),
      );
    }
    return root;
  }
  const list = machines.map((m, i) => `${i}: ${describeMachine(m)}`).join('; ');
  if (wanted === undefined) {
    throw new InputError(
      `this hwloc file holds ${machines.length} machines under one System (${list}); pick one with --hwloc-machine N (0-based)`,
      at(root.el, file),
    );
  }
  if (!Number.isInteger(wanted) || wanted < 0 || wanted >= machines.length) {
    throw new InputError(
      `--hwloc-machine ${wanted}: this hwloc file holds machines 0..${machines.length - 1} (${list})`,
      at(root.el, file),
    );
  }
  return machines[wanted];
}

/** The file's name; one machine picked out of several adds the name hwloc records for it. */
function machineName(file: string, picked: HwObject | undefined): string {
  const base = onOneLine(baseName(file).replace(/\.xml$/i, '')) || 'hwloc';
  const recorded = picked && recordedName(picked);
  const own = recorded && onOneLine(recorded);
  return own ? `${base}/${own}` : base;
}

function recordedName(machine: HwObject): string | undefined {
  return machine.infos.get('HostName') ?? machine.infos.get('AssemblerName') ?? machine.el.attrs.get('name');
}

function describeMachine(machine: HwObject): string {
  const name = recordedName(machine);
  let cores = 0;
  const count = (o: HwObject) => {
    if (o.role === 'core') cores++;
    else o.children.forEach(count);
  };
  count(machine);
  const size = cores > 0 ? `${cores} cores` : 'no cores listed';
  return name ? `'${name}', ${size}` : size;
}

/** Every object under `root`, with PU, package and NUMA ids and the lookups later steps share. */
function readTree(root: HwObject, file: string): Tree {
  const attrs = new Attrs(file);
  const all: HwObject[] = [];
  const collect = (o: HwObject) => {
    all.push(o);
    o.children.forEach(collect);
  };
  collect(root);
  // Validate every cpuset up front, so a malformed one is reported even where it is not needed.
  const cpusets = new Map(all.map((o) => [o, attrs.bitmap(o.el, 'cpuset')]));
  const puIds = readPuIds(all, attrs, root);
  const puMemo = new Map<HwObject, number[]>();
  const pusOf = (o: HwObject): number[] => {
    let pus = puMemo.get(o);
    if (!pus) {
      pus = o.role === 'pu' ? [puIds.get(o)!] : o.children.flatMap(pusOf);
      puMemo.set(o, pus);
    }
    return pus;
  };
  const packageIds = assignIds(
    all.filter((o) => o.role === 'package'),
    attrs,
    'Package',
  );
  const numaIds = assignIds(
    all.filter((o) => o.role === 'numa'),
    attrs,
    'NUMANode',
  );
  const packageOf = (o: HwObject) => {
    const p = o.role === 'package' ? o : ancestor(o, 'package');
    return p ? packageIds.get(p) : undefined;
  };
  /** CPUs an object is local to: its cpuset, else the PUs below it or below its nearest ancestor that has some. */
  const cpusOf = (o: HwObject): number[] => {
    const cpuset = cpusets.get(o);
    if (cpuset) return cpuset;
    for (let p: HwObject | undefined = o; p; p = p.parent) if (pusOf(p).length > 0) return pusOf(p);
    return [];
  };
  return { attrs, all, packageIds, numaIds, pusOf, cpusOf, packageOf };
}

/** Hardware threads by OS index, which must be unique within the machine. */
function readPuIds(all: HwObject[], attrs: Attrs, root: HwObject): Map<HwObject, number> {
  const puIds = new Map<HwObject, number>();
  const puById = new Map<number, HwObject>();
  for (const o of all.filter((x) => x.role === 'pu')) {
    const id = attrs.int(o.el, 'os_index');
    if (id === undefined) throw new InputError('PU without os_index', at(o.el, attrs.file, 'object[type=PU].os_index'));
    const clash = puById.get(id);
    if (clash)
      throw new InputError(
        `PU os_index ${id} appears twice (first at line ${clash.el.line})`,
        at(o.el, attrs.file, 'object[type=PU].os_index'),
      );
    puIds.set(o, id);
    puById.set(id, o);
  }
  if (puIds.size === 0)
    throw new InputError('no PU objects: the topology has no processing units to simulate', at(root.el, attrs.file));
  return puIds;
}

function ancestor(o: HwObject, role: HwObject['role']): HwObject | undefined {
  for (let p = o.parent; p; p = p.parent) if (p.role === role) return p;
  return undefined;
}

function readPackages(tree: Tree): FoundPackage[] {
  return [...tree.packageIds].map(([o, id]) => {
    const model = o.infos.get('CPUModel')?.trim() || o.el.attrs.get('name')?.trim() || undefined;
    const frequencyGHz = model ? frequencyFromModel(model) : undefined;
    return { id, ...(model ? { model } : {}), ...(frequencyGHz ? { frequencyGHz } : {}), ...identityOf(o, tree) };
  });
}

/**
 * Vendor, family and model numbers of a package's processor (hwloc 1.11 and later on x86), from
 * the package or, where an older export put them there, the machine above it.
 */
function identityOf(o: HwObject, tree: Tree): Pick<FoundPackage, 'vendor' | 'family' | 'modelNumber'> {
  const find = (name: string): { value: string; el: XmlElement } | undefined => {
    for (let p: HwObject | undefined = o; p; p = p.parent) {
      const el = p.el.children.find((c) => c.name === 'info' && c.attrs.get('name') === name);
      const value = el?.attrs.get('value')?.trim();
      if (el && value) return { value, el };
    }
    return undefined;
  };
  const number = (name: string): number | undefined => {
    const found = find(name);
    if (found === undefined) return undefined;
    if (!/^\d+$/.test(found.value))
      throw new InputError(
        `${name}="${found.value}" is not a decimal number`,
        at(found.el, tree.attrs.file, `info[name=${name}].value`),
      );
    return Number(found.value);
  };
  const vendor = find('CPUVendor')?.value;
  const family = number('CPUFamilyNumber');
  const modelNumber = number('CPUModelNumber');
  return {
    ...(vendor ? { vendor } : {}),
    ...(family !== undefined ? { family } : {}),
    ...(modelNumber !== undefined ? { modelNumber } : {}),
  };
}

/** Cores, or PUs outside any core (some v1 exports list bare PUs). */
function readCores(tree: Tree): FoundCore[] {
  const cores: FoundCore[] = [];
  for (const o of tree.all) {
    const inCore = o.role === 'pu' && ancestor(o, 'core') !== undefined;
    if ((o.role !== 'core' && o.role !== 'pu') || inCore) continue;
    const pus = tree.pusOf(o);
    if (pus.length === 0) continue;
    const pkg = tree.packageOf(o);
    const numa = ancestor(o, 'numa');
    cores.push({
      pus,
      ...(pkg !== undefined ? { package: pkg } : {}),
      ...(numa ? { numaHint: tree.numaIds.get(numa)! } : {}),
    });
  }
  return cores;
}

function readNumaNodes(tree: Tree, memattrs: ReturnType<typeof readMemoryAttributes>): FoundNuma[] {
  const { attrs } = tree;
  return [...tree.numaIds].map(([o, id]) => {
    const subtype = (o.el.attrs.get('subtype') ?? '').toUpperCase();
    const kind = subtype === 'HBM' || subtype === 'MCDRAM' ? 'hbm' : 'dram';
    const cpus = tree.cpusOf(o);
    const gp = attrs.int(o.el, 'gp_index');
    const perf = gp !== undefined ? memattrs.get(gp) : undefined;
    const pkg = tree.packageOf(o);
    const memoryBytes = attrs.int(o.el, 'local_memory');
    const node: FoundNuma = { id, cpus, kind };
    // A node without memory (local_memory="0": CPUs whose memory sits elsewhere) has no size to
    // take; the assembly fills one in and lists it as guessed, as for a node that says nothing.
    if (memoryBytes !== undefined && memoryBytes > 0) node.memoryBytes = memoryBytes;
    if (pkg !== undefined) node.packageHint = pkg;
    const local = perf?.find((p) => p.initiators === undefined || p.initiators.some((c) => cpus.includes(c)));
    if (local?.bandwidth !== undefined) node.bandwidth = local.bandwidth;
    if (local?.latencyNs !== undefined) node.latencyNs = local.latencyNs;
    return node;
  });
}

/** OS indices of packages or NUMA nodes; objects without one are numbered after the largest. */
function assignIds(objects: HwObject[], attrs: Attrs, type: string): Map<HwObject, number> {
  const ids = new Map<HwObject, number>();
  const byId = new Map<number, HwObject>();
  const given = objects.map((o) => attrs.int(o.el, 'os_index'));
  let next = Math.max(-1, ...given.filter((g): g is number => g !== undefined)) + 1;
  objects.forEach((o, i) => {
    const id = given[i] ?? next++;
    const clash = byId.get(id);
    if (clash) {
      throw new InputError(
        `${type} os_index ${id} appears twice (first at line ${clash.el.line})`,
        at(o.el, attrs.file, `object[type=${o.type}].os_index`),
      );
    }
    ids.set(o, id);
    byId.set(id, o);
  });
  return ids;
}

function readCaches(
  all: HwObject[],
  attrs: Attrs,
  pusOf: (o: HwObject) => number[],
  cpusOf: (o: HwObject) => number[],
): FoundCache[] {
  const caches: FoundCache[] = [];
  const memorySide: { o: HwObject; size: number }[] = [];
  for (const o of all) {
    if (o.role !== 'cache') continue;
    // Instruction caches never hold message data.
    if (/^L\d+iCache$/.test(o.type) || attrs.int(o.el, 'cache_type') === 2) continue;
    const size = attrs.int(o.el, 'cache_size');
    if (!size) continue;
    if (o.type === 'MemCache' || o.el.attrs.get('subtype') === 'MemorySideCache') {
      memorySide.push({ o, size });
      continue;
    }
    const named = /^L(\d+)/.exec(o.type);
    const level = named ? Number(named[1]) : attrs.int(o.el, 'depth');
    if (!level) continue;
    const pus = pusOf(o);
    caches.push({ level, sizeBytes: size, cpus: pus.length > 0 ? pus : cpusOf(o) });
  }
  // A memory-side cache sits after every CPU cache; its own depth counts from there.
  const deepest = Math.max(0, ...caches.map((c) => c.level));
  for (const { o, size } of memorySide) {
    const named = /^L(\d+)/.exec(o.type);
    const level = named ? Number(named[1]) : deepest + (attrs.int(o.el, 'depth') || 1);
    caches.push({ level, sizeBytes: size, cpus: cpusOf(o), memorySide: true });
  }
  return caches;
}
