import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFigures, coreCosts, dramFigures } from '../../hardware/hwloc/processor-figures.ts';
import { importHwlocXml } from '../../hardware/hwloc/import.ts';
import { IMPORT_DEFAULTS, cacheDefaults } from '../../hardware/import-defaults.ts';
import { listPresets, loadPreset } from '../../hardware/presets.ts';
import { PROCESSOR_ROWS } from '../../hardware/processor-rows.ts';
import { findProcessor, memoryBandwidth, type ProcessorRow } from '../../hardware/processor-table.ts';
import { packageVertex, type MachineSpec } from '../../hardware/spec.ts';
import { detectHost } from '../../hardware/sysfs.ts';
import { validateMachine } from '../../hardware/validate.ts';
import { inputErrorOf } from '../helpers/input-error.ts';
import { propRuns } from '../helpers/prop-runs.ts';

const fixtures = fileURLToPath(new URL('../fixtures/hwloc/', import.meta.url));
const realDir = fileURLToPath(new URL('../../../shared/topologies/hwloc/', import.meta.url));
const load = (name: string) => importHwlocXml(readFileSync(fixtures + name, 'utf8'), name);
const row = (id: string): ProcessorRow => PROCESSOR_ROWS.find((r) => r.id === id)!;

/** Guessed fields that are speeds of the processor or its platform (not I/O, sizes or the kernel). */
function speedGuesses(m: MachineSpec): string[] {
  return m.guessed.filter((g) => {
    if (/^(caches|numaNodes)\[\d+\]\.(bandwidth|latencyNs)$/.test(g) || g.startsWith('costs.')) return true;
    const link = /^links\[(\d+)\]\.(bandwidth|latencyNs)$/.exec(g);
    // Links to an I/O hub belong to the I/O path, which the processor table does not describe.
    return link !== null && ![m.links[Number(link[1])].a, m.links[Number(link[1])].b].includes('iohub');
  });
}

describe('finding a processor', () => {
  it('by vendor, family and model number first, whatever the model string says', () => {
    expect(findProcessor({ vendor: 'AuthenticAMD', family: 25, model: 17, name: 'AMD EPYC' })?.id).toBe('zen4-genoa');
    expect(findProcessor({ vendor: 'GenuineIntel', family: 6, model: 87, name: '06/57' })?.id).toBe('knights-landing');
    // Genoa is family 19h models 10h and 11h; model 18h is Threadripper 7000 (Storm Peak), whose
    // memory has four or eight channels, and Zen 4c parts are models A0h-AFh.
    expect(findProcessor({ vendor: 'AuthenticAMD', family: 25, model: 0x10, name: 'x' })?.id).toBe('zen4-genoa');
    for (const model of [0x12, 0x18, 0x1f, 0xa0]) {
      const name = model === 0x18 ? 'AMD Ryzen Threadripper 7980X 64-Cores' : 'x';
      expect(findProcessor({ vendor: 'AuthenticAMD', family: 25, model, name }), `model ${model}`).toBeUndefined();
    }
    // The numbers name another vendor's die: no match by number, the string decides.
    expect(findProcessor({ vendor: 'AuthenticAMD', family: 6, model: 45, name: 'x' })).toBeUndefined();
  });

  it('by the model string when there are no numbers', () => {
    const name = (n: string) => findProcessor({ name: n })?.id;
    expect(name('Intel(R) Xeon(R) CPU E5-2650 0 @ 2.00GHz')).toBe('sandy-bridge-ep');
    expect(name('Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz')).toBe('broadwell-ep');
    // Ivy Bridge-EP (v2) and Haswell-EP (v3) are not in the table: not taken for Sandy Bridge.
    expect(name('Intel(R) Xeon(R) CPU E5-2670 v2 @ 2.50GHz')).toBeUndefined();
    expect(name('Intel(R) Xeon(R) CPU E5-2690 v3 @ 2.60GHz')).toBeUndefined();
    expect(name('Quad-Core AMD Opteron(tm) Processor 2356')).toBe('k10-barcelona');
    expect(name('Six-Core AMD Opteron(tm) Processor 8439 SE')).toBe('k10-istanbul');
    expect(name('Dual-Core AMD Opteron(tm) Processor 8218')).toBe('k8');
    expect(name('Intel(R) Core(TM) i5 CPU         750  @ 2.67GHz')).toBe('nehalem-lynnfield');
    expect(name('Intel(R) Core(TM) i7 CPU         870  @ 2.93GHz')).toBe('nehalem-lynnfield');
    // Later Core i7s with four-digit numbers are other generations.
    expect(name('Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz')).toBeUndefined();
    expect(name('POWER8NVL, altivec supported')).toBe('power8');
    expect(name('AMD EPYC 9654 96-Core Processor')).toBe('zen4-genoa');
    // Bergamo (Zen 4c) has other caches.
    expect(name('AMD EPYC 9754 128-Core Processor')).toBeUndefined();
    expect(name('AMD Engineering Sample')).toBeUndefined();
    expect(findProcessor({})).toBeUndefined();
  });

  it('gives every preset processor a row', () => {
    for (const { name } of listPresets()) {
      const model = loadPreset(name).packages[0].model;
      expect(findProcessor({ name: model }), `${name}: ${model}`).toBeDefined();
    }
  });

  it('has unique ids and no row whose numbers another row also claims', () => {
    expect(new Set(PROCESSOR_ROWS.map((r) => r.id)).size).toBe(PROCESSOR_ROWS.length);
    const claimed = new Set<string>();
    for (const r of PROCESSOR_ROWS) {
      if (r.match.family === undefined) continue;
      for (const m of r.match.models ?? ['any']) {
        const key = `${r.match.vendor}/${r.match.family}/${m}`;
        expect(claimed.has(key), key).toBe(false);
        claimed.add(key);
      }
    }
  });
});

describe('rows against the presets of the same processor', () => {
  // A row carries its preset's sourced figures in cycles: at the preset's clock they must give the
  // preset's numbers back (within the rounding of the preset's ns figures).
  const close = (actual: number, expected: number, what: string) =>
    expect(Math.abs(actual - expected) / expected, `${what}: ${actual} vs ${expected}`).toBeLessThan(0.02);

  it.each(listPresets().map((p) => p.name))('%s', (name) => {
    const preset = loadPreset(name);
    const r = findProcessor({ name: preset.packages[0].model })!;
    const clock = preset.cores[0].frequencyGHz;
    for (const cache of preset.caches.filter((c) => !c.memorySide)) {
      const f = cacheFigures(r, cache.level, cache.cores.length, clock);
      if (f === undefined) continue; // a level the import never reports for this processor (POWER8's Centaur L4)
      close(f.latencyNs, cache.latencyNs, `${cache.id} latency`);
      close(f.bandwidth, cache.bandwidth, `${cache.id} bandwidth`);
      expect(f.victim ?? false, `${cache.id} victim`).toBe(cache.victim ?? false);
    }
    const costs = coreCosts(r, clock);
    close(costs.copyBandwidth, preset.costs.copyBandwidth, 'copy');
    close(costs.reduceBandwidth, preset.costs.reduceBandwidth, 'reduce');
    expect(costs.missConcurrency).toBe(preset.costs.missConcurrency);
    expect(costs.streamConcurrency).toBe(preset.costs.streamConcurrency);
    expect(costs.kernelStores).toBe(preset.costs.kernelStores);
    expect(costs.lineBytes).toBe(preset.costs.lineBytes);
    // Dunnington's preset is an IBM x3950 M2 with its own chipset; the row is the usual Intel 7300 platform.
    if (name === 'dunnington') return;
    const memory = dramFigures(r, 1);
    close(memory.bandwidth, preset.numaNodes[0].bandwidth, 'memory bandwidth');
    expect(memory.latencyNs).toBe(preset.numaNodes[0].latencyNs);
    expect(memory.writeCost).toBe(preset.numaNodes[0].writeCost);
    const kind = (a: string, b: string) => (a.startsWith('pkg') && b.startsWith('pkg') ? 'point-to-point' : 'fsb');
    const links = preset.links.filter((l) => kind(l.a, l.b) === r.link.kind);
    if (links.length === 0) return; // one socket: no link to compare
    expect(links.some((l) => l.bandwidth === r.link.bandwidth && l.latencyNs === r.link.latencyNs)).toBe(true);
  });
});

describe('importing a processor the table knows', () => {
  it('names it by numbers alone and guesses no speed', () => {
    const m = load('v2-ids-genoa.xml');
    validateMachine(m);
    const genoa = row('zen4-genoa');
    expect(m.processor).toBe(genoa.name);
    expect(speedGuesses(m)).toEqual([]);
    // No clock in the model string: the row's reference clock, still listed as a guess.
    expect(m.cores.map((c) => c.frequencyGHz)).toEqual([2.4, 2.4, 2.4, 2.4]);
    expect(m.guessed).toContain('cores[0].frequencyGHz');
    const l3 = m.caches.find((c) => c.level === 3)!;
    expect(l3.victim).toBe(true);
    expect(l3.bandwidth).toBeCloseTo(32 * 2 * 2.4, 9); // 32 B per cycle for each of its 2 cores
    expect(l3.latencyNs).toBeCloseTo(50 / 2.4, 9);
    expect(m.numaNodes.map((n) => n.bandwidth)).toEqual([memoryBandwidth(genoa), memoryBandwidth(genoa)]);
    expect(m.links).toEqual([
      { name: 'pkg0-pkg1', a: 'pkg0', b: 'pkg1', bandwidth: genoa.link.bandwidth, latencyNs: genoa.link.latencyNs },
    ]);
    expect(m.costs).toEqual(coreCosts(genoa, 2.4));
  });

  it('refuses a family or model number that is not a number, naming its line', () => {
    const text = readFileSync(fixtures + 'v2-ids-genoa.xml', 'utf8').replace('value="25"', 'value="0x19"');
    const e = inputErrorOf(() => importHwlocXml(text, 'ids.xml'));
    expect(e.message).toBe(
      'ids.xml:10:7 (info[name=CPUFamilyNumber].value): CPUFamilyNumber="0x19" is not a decimal number',
    );
  });

  it('keeps the defaults when the packages do not all name the same row', () => {
    const text = readFileSync(fixtures + 'v2-ids-genoa.xml', 'utf8').replace(
      /(os_index="1" cpuset="0x0000000c" gp_index="13">\s*<info name="CPUVendor" value="AuthenticAMD"\/>\s*<info name="CPUFamilyNumber" value=")25/,
      '$116',
    );
    const m = importHwlocXml(text, 'mixed.xml');
    expect(m.processor).toBeUndefined();
    expect(speedGuesses(m)).toContain('numaNodes[0].bandwidth');
  });

  it('keeps a cache level the row lacks listed as guessed, with the default figures', () => {
    // A K8 Opteron never had an L3; a source that reports one gets the default for it.
    const text = readFileSync(fixtures + 'v2-ids-genoa.xml', 'utf8').replaceAll('value="25"', 'value="15"');
    const m = importHwlocXml(text, 'k8.xml');
    expect(m.processor).toBe(row('k8').name);
    const l3 = m.caches.findIndex((c) => c.level === 3);
    expect(speedGuesses(m)).toEqual([
      `caches[${l3}].bandwidth`,
      `caches[${l3}].latencyNs`,
      `caches[${l3 + 1}].bandwidth`,
      `caches[${l3 + 1}].latencyNs`,
    ]);
    expect(m.caches[l3].bandwidth).toBe(cacheDefaults(3).bandwidth);
  });
});

describe('importing a processor the table does not know', () => {
  const m = load('v2-unknown-cpu.xml');

  it('keeps the documented defaults and lists every one as guessed', () => {
    validateMachine(m);
    expect(m.processor).toBeUndefined();
    expect(m.numaNodes.map((n) => [n.bandwidth, n.latencyNs])).toEqual([
      [IMPORT_DEFAULTS.memory.bandwidth, IMPORT_DEFAULTS.memory.latencyNs],
      [IMPORT_DEFAULTS.memory.bandwidth, IMPORT_DEFAULTS.memory.latencyNs],
    ]);
    for (const c of m.caches) {
      expect([c.bandwidth, c.latencyNs]).toEqual([cacheDefaults(c.level).bandwidth, cacheDefaults(c.level).latencyNs]);
      expect(c.victim).toBeUndefined();
    }
    expect(m.links.map((l) => [l.bandwidth, l.latencyNs])).toEqual([
      [IMPORT_DEFAULTS.link.bandwidth, IMPORT_DEFAULTS.link.latencyNs],
    ]);
    expect(m.cores[0].frequencyGHz).toBe(IMPORT_DEFAULTS.core.frequencyGHz);
    expect(m.costs).toEqual({
      copyBandwidth: IMPORT_DEFAULTS.core.copyBytesPerCycle * IMPORT_DEFAULTS.core.frequencyGHz,
      reduceBandwidth: IMPORT_DEFAULTS.core.reduceBytesPerCycle * IMPORT_DEFAULTS.core.frequencyGHz,
      missConcurrency: IMPORT_DEFAULTS.core.missConcurrency,
    });
    expect(speedGuesses(m)).toEqual([
      'numaNodes[0].bandwidth',
      'numaNodes[0].latencyNs',
      'numaNodes[1].bandwidth',
      'numaNodes[1].latencyNs',
      ...m.caches.flatMap((_, i) => [`caches[${i}].bandwidth`, `caches[${i}].latencyNs`]),
      'links[0].bandwidth',
      'links[0].latencyNs',
      'costs.copyBandwidth',
      'costs.reduceBandwidth',
      'costs.missConcurrency',
    ]);
  });
});

/** hwloc v2 XML of `packages` packages of `cores` single-thread cores, for a processor named by `infos`. */
function syntheticXml(
  infos: Record<string, string>,
  shape: { packages: number; cores: number; l3: boolean; numaPerPackage: 1 | 2; sharedMemory: boolean },
): string {
  const hex = (pus: number[]) =>
    `0x${pus
      .reduce((m, p) => m | (1 << p), 0)
      .toString(16)
      .padStart(8, '0')}`;
  let gp = 1;
  const info = Object.entries(infos)
    .map(([k, v]) => `<info name="${k}" value="${v}"/>`)
    .join('');
  const all = Array.from({ length: shape.packages * shape.cores }, (_, i) => i);
  const packages = Array.from({ length: shape.packages }, (_, p) => {
    const pus = all.slice(p * shape.cores, (p + 1) * shape.cores);
    const core = (pu: number) =>
      `<object type="L2Cache" cpuset="${hex([pu])}" gp_index="${gp++}" cache_size="262144" depth="2" cache_type="0">` +
      `<object type="L1Cache" cpuset="${hex([pu])}" gp_index="${gp++}" cache_size="32768" depth="1" cache_type="1">` +
      `<object type="Core" os_index="${pu}" cpuset="${hex([pu])}" gp_index="${gp++}">` +
      `<object type="PU" os_index="${pu}" cpuset="${hex([pu])}" gp_index="${gp++}"/></object></object></object>`;
    const half = Math.ceil(pus.length / 2);
    const nodes = shape.sharedMemory
      ? ''
      : shape.numaPerPackage === 1
        ? `<object type="NUMANode" os_index="${p}" cpuset="${hex(pus)}" gp_index="${gp++}" local_memory="1073741824"/>`
        : [pus.slice(0, half), pus.slice(half)]
            .filter((part) => part.length > 0)
            .map(
              (part, k) =>
                `<object type="NUMANode" os_index="${2 * p + k}" cpuset="${hex(part)}" gp_index="${gp++}" local_memory="1073741824"/>`,
            )
            .join('');
    const body = pus.map(core).join('');
    const caches = shape.l3
      ? `<object type="L3Cache" cpuset="${hex(pus)}" gp_index="${gp++}" cache_size="8388608" depth="3" cache_type="0">${body}</object>`
      : body;
    return `<object type="Package" os_index="${p}" cpuset="${hex(pus)}" gp_index="${gp++}">${info}${nodes}${caches}</object>`;
  }).join('');
  const shared = shape.sharedMemory
    ? `<object type="NUMANode" os_index="0" cpuset="${hex(all)}" gp_index="${gp++}" local_memory="1073741824"/>`
    : '';
  return `<topology version="2.0"><object type="Machine" os_index="0" cpuset="${hex(all)}" gp_index="${gp++}">${shared}${packages}</object></topology>`;
}

describe('property: a processor in the table leaves no speed guessed', () => {
  it('for every row, named by numbers or by string, on machines of any shape', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROCESSOR_ROWS),
        fc.boolean(),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom(1 as const, 2 as const),
        (r, byNumber, packages, cores, numaPerPackage) => {
          const numbers = byNumber && r.match.family !== undefined;
          const infos: Record<string, string> = numbers
            ? {
                CPUVendor: r.match.vendor ?? '',
                CPUFamilyNumber: String(r.match.family),
                CPUModelNumber: String(r.match.models?.[0] ?? 1),
                CPUModel: 'Some Processor',
              }
            : { CPUModel: sampleName(r) };
          // Behind a front-side bus every package shares the chipset's memory.
          const sharedMemory = r.link.kind === 'fsb' && packages > 1;
          const m = importHwlocXml(
            syntheticXml(infos, { packages, cores, l3: r.caches[3] !== undefined, numaPerPackage, sharedMemory }),
            'synthetic.xml',
          );
          validateMachine(m);
          expect(m.processor).toBe(r.name);
          expect(speedGuesses(m)).toEqual([]);
          // The DRAM nodes of a package split its memory, never more than one socket's.
          for (const pkg of m.packages) {
            const local = m.numaNodes.filter((n) => n.attach === packageVertex(pkg.id) && n.kind === 'dram');
            const total = local.reduce((s, n) => s + n.bandwidth, 0);
            if (local.length > 0) expect(total).toBeCloseTo(memoryBandwidth(r), 6);
          }
        },
      ),
      { numRuns: propRuns(60), seed: 20261123 },
    );
  });
});

/** A model string the row's patterns accept, from the presets and real topologies. */
function sampleName(r: ProcessorRow): string {
  const samples = [
    'Intel Xeon E7340',
    'Intel Xeon X7460',
    'Intel Xeon E5520',
    'Intel(R) Core(TM) i5 CPU         750  @ 2.67GHz',
    'Intel Xeon X7550',
    'Intel Xeon X5650',
    'Intel(R) Xeon(R) CPU E5-2650 0 @ 2.00GHz',
    'Intel Xeon E5-2680 v4',
    'Intel Xeon Platinum 8480+',
    'Intel Xeon Phi 7250',
    'AMD Opteron 8218',
    'AMD Opteron 8347 HE',
    'AMD Opteron 8439 SE',
    'AMD EPYC 9654 96-Core Processor',
    'POWER8NVL, altivec supported',
  ];
  const name = samples.find((s) => findProcessor({ name: s }) === r);
  if (name === undefined) throw new Error(`no sample model string for row ${r.id}`);
  return name;
}

const haveReal = existsSync(realDir);

describe.skipIf(!haveReal)('real hwloc topologies (skipped: ../shared/topologies/hwloc/ is absent)', () => {
  const real = (name: string) => importHwlocXml(readFileSync(realDir + name, 'utf8'), name);

  it.each([
    ['32em64t-2n8c2t-pci-normalio.xml', 'sandy-bridge-ep'],
    ['64intel64-heteromem.xml', 'knights-landing'],
    ['power8gpudistances.xml', 'power8'],
  ])('%s: %s, no speed guessed', (file, id) => {
    const m = real(file);
    expect(m.processor).toBe(row(id).name);
    expect(speedGuesses(m)).toEqual([]);
  });

  it('every other file keeps the defaults for what it cannot name', () => {
    const known = ['32em64t-2n8c2t-pci-normalio.xml', '64intel64-heteromem.xml', 'power8gpudistances.xml'];
    for (const file of readdirSync(realDir).filter((f) => f.endsWith('.xml') && !known.includes(f))) {
      const m = real(file);
      expect(m.processor, file).toBeUndefined();
      expect(m.guessed, file).toContain('costs.copyBandwidth');
    }
  });
});

describe('sysfs: /proc/cpuinfo numbers name the processor', () => {
  const base = fileURLToPath(new URL('../fixtures/sysfs/two-socket/', import.meta.url));
  const scratch = mkdtempSync(join(tmpdir(), 'cpuinfo-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const detect = (cpuinfo: string) => {
    const path = join(scratch, `cpuinfo-${Math.random().toString(36).slice(2)}`);
    writeFileSync(path, cpuinfo);
    return detectHost(join(base, 'sys'), { cpuinfo: path, osrelease: join(base, 'proc/osrelease') });
  };
  const cpuinfo = (fields: string) =>
    Array.from({ length: 8 }, (_, cpu) => `processor\t: ${cpu}\n${fields}\n`).join('\n');

  it('a Genoa named only "AMD EPYC" (as under KVM) by family 25, model 17', () => {
    const m = detect(cpuinfo('vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC'));
    expect(m.processor).toBe(row('zen4-genoa').name);
    expect(speedGuesses(m)).toEqual([]);
  });

  it('an unknown processor keeps the defaults; POWER\'s machine "model" is not a number and is ignored', () => {
    const m = detect(cpuinfo('cpu\t\t: Acme RISC 1\nmodel\t\t: 8335-GTB'));
    expect(m.processor).toBeUndefined();
    expect(speedGuesses(m)).toContain('costs.copyBandwidth');
    expect(m.packages[0].model).toBe('Acme RISC 1');
  });
});
