// This host's topology from Linux sysfs (and /proc), as a MachineSpec. Reads the same facts hwloc
// gathers on Linux: packages, cores and their hardware threads, caches and who shares them, NUMA
// nodes with their memory and distances, InfiniBand adapters and their NUMA locality. Missing
// numbers come from the processor table, else IMPORT_DEFAULTS (listed in `guessed`), as for hwloc XML.
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { assembleMachine } from './hwloc/assemble.ts';
import type {
  FoundBus,
  FoundCache,
  FoundCore,
  FoundMachine,
  FoundNic,
  FoundNuma,
  FoundPackage,
} from './hwloc/found.ts';
import { frequencyFromModel } from './hwloc/model-frequency.ts';
import { InputError } from '../common/input-error.ts';
import type { MachineSpec } from './spec.ts';

export interface DetectHostOptions {
  /** /proc/cpuinfo to take model names from; by default read only when `root` is the real /sys. */
  cpuinfo?: string;
  /** File holding the kernel release (/proc/sys/kernel/osrelease); same default rule. */
  osrelease?: string;
  /** Machine name; defaults to "host". */
  name?: string;
}

export function detectHost(root = '/sys', options: DetectHostOptions = {}): MachineSpec {
  const real = root === '/sys';
  const fs = new SysfsReader(root);
  const cpuDir = 'devices/system/cpu';
  if (!fs.isDir(cpuDir)) throw new InputError(`no ${cpuDir} under ${root}: not a Linux sysfs tree`, { file: root });

  const cpuinfoPath = options.cpuinfo ?? (real ? '/proc/cpuinfo' : undefined);
  const models = cpuinfoPath ? readCpuinfo(cpuinfoPath) : new Map<number, CpuinfoEntry>();

  const cpus = fs
    .list(cpuDir)
    .map((name) => /^cpu(\d+)$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .filter((cpu) => fs.read(`${cpuDir}/cpu${cpu}/online`)?.trim() !== '0' && fs.isDir(`${cpuDir}/cpu${cpu}/topology`))
    .sort((a, b) => a - b);
  if (cpus.length === 0)
    throw new InputError(`no online CPU with a topology directory under ${join(root, cpuDir)}`, { file: root });
  const online = new Set(cpus);

  const packages = new Map<number, FoundPackage>();
  const cores = new Map<string, FoundCore>();
  const caches = new Map<string, FoundCache>();
  for (const cpu of cpus) {
    const topo = `${cpuDir}/cpu${cpu}/topology`;
    const rawPkg = fs.int(`${topo}/physical_package_id`, true) ?? 0;
    // -1 where firmware does not say (virtual machines, some ARM boards): one package.
    const pkg = rawPkg < 0 ? 0 : rawPkg;
    if (!packages.has(pkg)) {
      const { name: model, ...identity } = models.get(cpu) ?? {};
      packages.set(pkg, { id: pkg, ...(model ? { model } : {}), ...identity });
    }
    const siblings = (
      fs.cpuList(`${topo}/thread_siblings_list`) ??
      fs.cpuList(`${topo}/core_cpus_list`) ?? [cpu]
    ).filter((c) => online.has(c));
    const key = siblings.join(',');
    if (!cores.has(key)) {
      const maxKHz = fs.int(`${cpuDir}/cpu${cpu}/cpufreq/cpuinfo_max_freq`, true);
      const name = models.get(cpu)?.name;
      const fromModel = name ? frequencyFromModel(name) : undefined;
      const frequencyGHz = maxKHz !== undefined && maxKHz > 0 ? maxKHz / 1e6 : fromModel;
      cores.set(key, {
        pus: siblings.length > 0 ? siblings : [cpu],
        package: pkg,
        ...(frequencyGHz ? { frequencyGHz } : {}),
      });
    }
    const cacheDir = `${cpuDir}/cpu${cpu}/cache`;
    for (const index of fs.list(cacheDir).filter((n) => /^index\d+$/.test(n))) {
      const dir = `${cacheDir}/${index}`;
      const type = fs.read(`${dir}/type`)?.trim() ?? 'Unified';
      if (type === 'Instruction') continue;
      const level = fs.int(`${dir}/level`, false);
      const size = fs.size(`${dir}/size`);
      const shared = (fs.cpuList(`${dir}/shared_cpu_list`) ?? [cpu]).filter((c) => online.has(c));
      if (!level || !size) continue;
      const cacheKey = `${level}|${type}|${shared.join(',')}`;
      if (!caches.has(cacheKey)) caches.set(cacheKey, { level, sizeBytes: size, cpus: shared });
    }
  }

  const { numaNodes, distances } = readNuma(fs);
  const { buses, nics } = readNics(fs, numaNodes);
  const osreleasePath = options.osrelease ?? (real ? '/proc/sys/kernel/osrelease' : undefined);
  const release = osreleasePath ? readOptional(osreleasePath)?.trim() : undefined;

  const found: FoundMachine = {
    source: root,
    name: options.name ?? 'host',
    origin: `sysfs ${root}`,
    packages: [...packages.values()],
    numaNodes,
    cores: [...cores.values()],
    caches: [...caches.values()],
    buses,
    nics,
    mechanisms: readMechanisms(fs),
  };
  if (distances) found.distances = distances;
  if (release) found.kernelRelease = release;
  if (real) found.architecture = process.arch;
  return assembleMachine(found);
}

function readNuma(fs: SysfsReader): { numaNodes: FoundNuma[]; distances?: { ids: number[]; values: number[][] } } {
  const nodeDir = 'devices/system/node';
  const ids = fs
    .list(nodeDir)
    .map((n) => /^node(\d+)$/.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  const numaNodes = ids.map((id): FoundNuma => {
    const dir = `${nodeDir}/node${id}`;
    const node: FoundNuma = { id, cpus: fs.cpuList(`${dir}/cpulist`) ?? [], kind: 'dram' };
    const meminfo = fs.read(`${dir}/meminfo`);
    const total = meminfo ? /MemTotal:\s*(\d+)\s*kB/.exec(meminfo) : null;
    // A node without memory (it exists: CPUs whose memory sits elsewhere) has no size to take; the
    // assembly fills one in and lists it as guessed, as for a node that says nothing.
    if (total && Number(total[1]) > 0) node.memoryBytes = Number(total[1]) * 1024;
    return node;
  });
  const rows = ids.map((id) => fs.numbers(`${nodeDir}/node${id}/distance`));
  if (ids.length < 2 || rows.some((r) => r === undefined || r.length !== ids.length)) return { numaNodes };
  return { numaNodes, distances: { ids, values: rows as number[][] } };
}

/**
 * Network adapters, as the hwloc import takes them: InfiniBand (and RoCE) HCAs from class/infiniband,
 * with their port's rate; Ethernet ports of a device of their own from class/net (type 1, ARPHRD_ETHER,
 * Linux include/uapi/linux/if_arp.h), with their speed in Mb/s where the link is up (-1 when not);
 * interfaces without a device (lo, bridges, tunnels) are not adapters. Each sits on a bus local to
 * its NUMA node.
 */
function readNics(fs: SysfsReader, numa: FoundNuma[]): { buses: FoundBus[]; nics: FoundNic[] } {
  const buses: FoundBus[] = [];
  const nics: FoundNic[] = [];
  const busOf = (device: string): string => {
    const node = fs.int(`${device}/numa_node`, true);
    const local = numa.find((n) => n.id === node);
    const busId = local ? `pci-numa${local.id}` : 'pci';
    if (!buses.some((b) => b.id === busId)) buses.push({ id: busId, cpus: local ? local.cpus : [] });
    return busId;
  };
  const ids = (device: string): string => {
    const vendor = fs.read(`${device}/vendor`)?.trim().replace(/^0x/, '');
    const product = fs.read(`${device}/device`)?.trim().replace(/^0x/, '');
    return vendor && product ? ` [${vendor}:${product}]` : '';
  };
  const pcie = (device: string) => {
    const link = pcieBandwidth(fs, device);
    return link !== undefined && Number.isFinite(link) && link > 0 ? { linkBandwidth: link } : {};
  };
  for (const name of fs.list('class/infiniband').sort()) {
    const dir = `class/infiniband/${name}`;
    const port = fs.list(`${dir}/ports`).sort()[0];
    const linkLayer = port ? fs.read(`${dir}/ports/${port}/link_layer`)?.trim() : undefined;
    const rate = port ? /([0-9.]+)\s*Gb\/sec/.exec(fs.read(`${dir}/ports/${port}/rate`) ?? '') : null;
    const hca = fs.read(`${dir}/hca_type`)?.trim();
    nics.push({
      id: name,
      model: `${linkLayer === 'Ethernet' ? 'RoCE' : 'InfiniBand'} adapter ${hca || name}${ids(`${dir}/device`)}`,
      bus: busOf(`${dir}/device`),
      kind: linkLayer === 'Ethernet' ? 'ethernet' : 'infiniband',
      ...pcie(`${dir}/device`),
      ...(rate && Number(rate[1]) > 0 ? { wireBandwidth: Number(rate[1]) / 8 } : {}),
    });
  }
  for (const name of fs.list('class/net').sort()) {
    const dir = `class/net/${name}`;
    if (!fs.exists(`${dir}/device`) || fs.read(`${dir}/type`)?.trim() !== '1') continue;
    const speed = Number(fs.read(`${dir}/speed`)?.trim());
    nics.push({
      id: name,
      model: `Ethernet adapter ${name}${ids(`${dir}/device`)}`,
      bus: busOf(`${dir}/device`),
      kind: 'ethernet',
      ...pcie(`${dir}/device`),
      ...(speed > 0 ? { wireBandwidth: speed / 8000 } : {}),
    });
  }
  return { buses, nics };
}

/** Per-direction bandwidth of a PCIe link from current_link_speed ("8.0 GT/s PCIe") and width. */
function pcieBandwidth(fs: SysfsReader, device: string): number | undefined {
  const speed = /([0-9.]+)\s*GT\/s/.exec(fs.read(`${device}/current_link_speed`) ?? '');
  const width = fs.int(`${device}/current_link_width`, true);
  if (!speed || !width) return undefined;
  const gts = Number(speed[1]);
  // PCIe 1.x/2.x encode 8b/10b; 3.0 and later 128b/130b (PCI-SIG base specifications).
  const efficiency = gts <= 5 ? 8 / 10 : 128 / 130;
  return (gts * efficiency * width) / 8;
}

function readMechanisms(fs: SysfsReader): FoundMachine['mechanisms'] {
  // KNEM and XPMEM register misc devices (/dev/knem, /dev/xpmem) visible under class/misc.
  const mechanisms: NonNullable<FoundMachine['mechanisms']> = {};
  if (fs.isDir('class/misc')) {
    mechanisms.knem = fs.exists('class/misc/knem');
    mechanisms.xpmem = fs.exists('class/misc/xpmem');
  }
  if (fs.isDir('class/dma')) {
    mechanisms.ioat = fs
      .list('class/dma')
      .some((chan) => fs.link(`class/dma/${chan}/device/driver`)?.endsWith('ioatdma') ?? false);
  }
  return mechanisms;
}

/** What /proc/cpuinfo says of one CPU's processor. */
interface CpuinfoEntry {
  name?: string;
  vendor?: string;
  family?: number;
  modelNumber?: number;
}

/**
 * cpu -> model name ("model name", or "cpu" on POWER), vendor_id, "cpu family" and "model" from
 * /proc/cpuinfo.
 */
function readCpuinfo(path: string): Map<number, CpuinfoEntry> {
  const entries = new Map<number, CpuinfoEntry>();
  const text = readOptional(path);
  if (!text) return entries;
  let entry: CpuinfoEntry | undefined;
  for (const line of text.split('\n')) {
    const m = /^([^:]+?)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const [key, value] = [m[1], m[2].trim()];
    if (key === 'processor' && /^\d+$/.test(value)) {
      entry = {};
      entries.set(Number(value), entry);
    } else if (entry === undefined || value === '') continue;
    else if ((key === 'model name' || key === 'cpu') && entry.name === undefined) entry.name = value;
    else if (key === 'vendor_id') entry.vendor = value;
    // x86 numbers family and model; POWER's "model" names the machine ("8335-GTB"), not the processor.
    else if (key === 'cpu family' && /^\d+$/.test(value)) entry.family = Number(value);
    else if (key === 'model' && /^\d+$/.test(value)) entry.modelNumber = Number(value);
  }
  return entries;
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Reads files below a sysfs root; absent files read as undefined, malformed ones throw InputError. */
class SysfsReader {
  constructor(readonly root: string) {}

  private path(rel: string): string {
    return join(this.root, rel);
  }
  exists(rel: string): boolean {
    return existsSync(this.path(rel));
  }
  isDir(rel: string): boolean {
    try {
      readdirSync(this.path(rel));
      return true;
    } catch {
      return false;
    }
  }
  list(rel: string): string[] {
    try {
      return readdirSync(this.path(rel));
    } catch {
      return [];
    }
  }
  link(rel: string): string | undefined {
    try {
      return readlinkSync(this.path(rel));
    } catch {
      return undefined;
    }
  }
  read(rel: string): string | undefined {
    return readOptional(this.path(rel));
  }
  private fail(rel: string, detail: string): never {
    throw new InputError(detail, { file: this.path(rel), line: 1 });
  }
  int(rel: string, signed: boolean): number | undefined {
    const text = this.read(rel)?.trim();
    if (text === undefined || text === '') return undefined;
    if (!(signed ? /^-?\d+$/ : /^\d+$/).test(text)) this.fail(rel, `"${text}" is not an integer`);
    return Number(text);
  }
  numbers(rel: string): number[] | undefined {
    const text = this.read(rel)?.trim();
    if (text === undefined) return undefined;
    const words = text.split(/\s+/).filter((w) => w !== '');
    if (words.some((w) => !/^\d+$/.test(w))) this.fail(rel, `"${text}" is not a list of integers`);
    return words.map(Number);
  }
  /** Cache sizes: "32K", "1024K", "2M", or bytes. */
  size(rel: string): number | undefined {
    const text = this.read(rel)?.trim();
    if (text === undefined || text === '') return undefined;
    const m = /^(\d+)\s*([KMG]?)$/i.exec(text);
    if (!m) this.fail(rel, `"${text}" is not a cache size like "32K"`);
    const unit = { '': 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30 }[m[2].toUpperCase() as '' | 'K' | 'M' | 'G'];
    return Number(m[1]) * unit;
  }
  /** CPU lists: "0-3,8,10-11"; empty file = empty list. */
  cpuList(rel: string): number[] | undefined {
    const text = this.read(rel)?.trim();
    if (text === undefined) return undefined;
    if (text === '') return [];
    const out: number[] = [];
    for (const part of text.split(',')) {
      const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
      if (!m) this.fail(rel, `"${text}" is not a CPU list like "0-3,8"`);
      const lo = Number(m[1]);
      const hi = m[2] === undefined ? lo : Number(m[2]);
      if (hi < lo || hi - lo > 1 << 16) this.fail(rel, `"${part}" is not a valid CPU range`);
      for (let c = lo; c <= hi; c++) out.push(c);
    }
    return out.sort((a, b) => a - b);
  }
}
