import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wireSpeedInName } from '../../hardware/hwloc/assemble.ts';
import { importHwlocXml } from '../../hardware/hwloc/import.ts';
import { buildLinks, type LinkVertex } from '../../hardware/hwloc/links.ts';
import { parseXml } from '../../hardware/hwloc/xml.ts';
import { IMPORT_DEFAULTS } from '../../hardware/import-defaults.ts';
import { memoryBandwidth, type ProcessorRow } from '../../hardware/processor-table.ts';
import { PROCESSOR_ROWS } from '../../hardware/processor-rows.ts';
import { InputError } from '../../common/input-error.ts';
import { packageVertex, type MachineSpec } from '../../hardware/spec.ts';
import { validateMachine } from '../../hardware/validate.ts';
import { inputErrorOf } from '../helpers/input-error.ts';

const fixtures = fileURLToPath(new URL('../fixtures/hwloc/', import.meta.url));
const realDir = fileURLToPath(new URL('../../../shared/topologies/hwloc/', import.meta.url));
const fixture = (name: string) => readFileSync(fixtures + name, 'utf8');
const load = (name: string) => importHwlocXml(fixture(name), name);
const row = (id: string): ProcessorRow => PROCESSOR_ROWS.find((r) => r.id === id)!;

/** Structural facts every imported machine must satisfy for the node model to use it. */
function expectConsistent(m: MachineSpec): void {
  validateMachine(m);
  const vertices = new Set([...m.packages.map((p) => packageVertex(p.id)), ...m.hubs.map((h) => h.id)]);
  const numaIds = new Set(m.numaNodes.map((n) => n.id));
  const coreIds = new Set(m.cores.map((c) => c.id));
  expect(m.cores.length).toBeGreaterThan(0);
  expect(m.numaNodes.length).toBeGreaterThan(0);
  expect(coreIds.size).toBe(m.cores.length);
  for (const c of m.cores) {
    expect(numaIds.has(c.numa)).toBe(true);
    expect(m.packages.some((p) => p.id === c.package)).toBe(true);
    expect(c.threads).toBeGreaterThanOrEqual(1);
    expect(c.frequencyGHz).toBeGreaterThan(0);
  }
  for (const n of m.numaNodes) {
    expect(vertices.has(n.attach)).toBe(true);
    expect(n.bandwidth).toBeGreaterThan(0);
  }
  for (const h of m.hubs) expect(h.id.startsWith('pkg')).toBe(false);
  for (const cache of m.caches) {
    expect(cache.cores.length).toBeGreaterThan(0);
    for (const c of cache.cores) expect(coreIds.has(c)).toBe(true);
  }
  for (const l of m.links) {
    expect(vertices.has(l.a) && vertices.has(l.b)).toBe(true);
    expect(l.latencyNs).toBeGreaterThan(0);
  }
  for (const b of m.ioBuses) expect(vertices.has(b.attach)).toBe(true);
  for (const nic of m.nics) expect(m.ioBuses.some((b) => b.id === nic.bus)).toBe(true);
  if (m.distances) {
    expect(m.distances.length).toBe(m.numaNodes.length);
    for (const row of m.distances) expect(row.length).toBe(m.numaNodes.length);
  }
  // Every vertex reachable from every other: the router must find a path for any access.
  const seen = new Set([[...vertices][0]]);
  for (let grew = true; grew;) {
    grew = false;
    for (const l of m.links) {
      if (seen.has(l.a) !== seen.has(l.b)) {
        seen.add(l.a);
        seen.add(l.b);
        grew = true;
      }
    }
  }
  expect(seen.size).toBe(vertices.size);
}

describe('hwloc v2 XML', () => {
  const m = load('v2-two-socket.xml');

  it('reads packages, cores, threads and the clock named by the model', () => {
    expectConsistent(m);
    expect(m.packages).toEqual([
      { id: 0, model: 'Intel(R) Xeon(R) CPU E5-2670 0 @ 2.60GHz' },
      { id: 1, model: 'Intel(R) Xeon(R) CPU E5-2670 0 @ 2.60GHz' },
    ]);
    // Cores are named by their first PU: core os_index 0 of package 1 is core 2.
    expect(m.cores.map((c) => [c.id, c.package, c.numa, c.threads])).toEqual([
      [0, 0, 0, 2],
      [1, 0, 0, 2],
      [2, 1, 1, 2],
      [3, 1, 1, 2],
    ]);
    expect(m.cores.every((c) => c.frequencyGHz === 2.6)).toBe(true);
    expect(m.guessed.some((g) => g.startsWith('cores['))).toBe(false);
  });

  it('attaches each NUMA node to its package with the memory hwloc reports', () => {
    expect(m.numaNodes.map((n) => [n.id, n.attach, n.memoryBytes, n.kind])).toEqual([
      [0, 'pkg0', 16 * 2 ** 30, 'dram'],
      [1, 'pkg1', 8 * 2 ** 30, 'dram'],
    ]);
    // The E5-2670 is in the processor table: its socket's memory figures replace the defaults.
    expect(m.processor).toBe(row('sandy-bridge-ep').name);
    expect(m.numaNodes[0].bandwidth).toBeCloseTo(memoryBandwidth(row('sandy-bridge-ep')), 9);
    expect(m.numaNodes[1].latencyNs).toBe(row('sandy-bridge-ep').memory.latencyNs);
    expect(m.guessed).not.toContain('numaNodes[0].bandwidth');
    expect(m.guessed).not.toContain('numaNodes[1].latencyNs');
    expect(m.guessed).not.toContain('numaNodes[0].memoryBytes');
  });

  it('keeps data caches with their sharers and drops instruction caches', () => {
    const summary = m.caches.map((c) => `${c.level}:${c.sizeBytes}:${c.cores.join(',')}`);
    expect(summary).toEqual([
      '1:32768:0',
      '1:32768:1',
      '2:262144:0',
      '2:262144:1',
      '2:262144:2',
      '2:262144:3',
      '3:20971520:0,1',
      '3:20971520:2,3',
    ]);
    expect(new Set(m.caches.map((c) => c.id)).size).toBe(m.caches.length);
  });

  it('takes the distance matrix and links the two packages', () => {
    expect(m.distances).toEqual([
      [10, 21],
      [21, 10],
    ]);
    expect(m.links.map((l) => [l.a, l.b])).toEqual([['pkg0', 'pkg1']]);
    // Sandy Bridge-EP's two QPI links, from the processor table.
    expect(m.links[0].bandwidth).toBe(row('sandy-bridge-ep').link.bandwidth);
    expect(m.guessed).not.toContain('links[0].bandwidth');
  });

  it('puts host bridges under their package and network adapters on their bus', () => {
    expect(m.ioBuses.map((b) => [b.id, b.attach])).toEqual([
      ['pci0000:00', 'pkg0'],
      ['pci0000:80', 'pkg1'],
    ]);
    expect(m.nics).toEqual([
      {
        id: 'eth0',
        model: 'Intel Corporation I350 Gigabit Network Connection',
        bus: 'pci0000:00',
        bandwidth: 0.125,
      },
      {
        id: 'mlx4_0',
        model: 'Mellanox Technologies MT27500 Family [ConnectX-3]',
        bus: 'pci0000:80',
        bandwidth: IMPORT_DEFAULTS.nic.infiniband,
      },
    ]);
    // The Ethernet port's name states its wire speed, 1 Gb/s (under its 1 GB/s PCIe link); the HCA's
    // wire speed is a default.
    expect(m.guessed).not.toContain('nics[0].bandwidth');
    expect(m.guessed).toContain('nics[1].bandwidth');
  });

  it('derives the kernel from OSRelease: CMA from Linux 3.2 on', () => {
    expect(m.kernel.version).toBe('3.10.0-957.el7.x86_64');
    expect(m.kernel.mechanisms.cma).toBe(true);
    expect(m.kernel.pageBytes).toBe(4096);
    expect(m.origin).toContain('v2-two-socket.xml');
    expect(m.description).toBe('2 packages, 4 cores, 8 threads, 2 NUMA nodes, 2 NICs');
  });

  it('gives identical output for identical input', () => {
    expect(load('v2-two-socket.xml')).toEqual(m);
  });
});

describe('hwloc v1 XML', () => {
  const m = load('v1-numa-sockets.xml');

  it('reads NUMA nodes that contain sockets, Cache objects by depth and relative distances', () => {
    expectConsistent(m);
    expect(m.packages.map((p) => p.model)).toEqual([
      'Quad-Core AMD Opteron(tm) Processor 2356',
      'Quad-Core AMD Opteron(tm) Processor 2356',
    ]);
    expect(m.numaNodes.map((n) => [n.id, n.attach, n.memoryBytes])).toEqual([
      [0, 'pkg0', 4 * 2 ** 30],
      [1, 'pkg1', 4 * 2 ** 30],
    ]);
    expect(m.cores.map((c) => [c.id, c.package, c.numa])).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [2, 1, 1],
      [3, 1, 1],
    ]);
    // The cache_type=2 (instruction) L1 is dropped; the data L1 stays.
    expect(m.caches.map((c) => `${c.level}:${c.cores.join(',')}`)).toEqual(['1:0', '2:0', '2:1', '3:0,1']);
    expect(m.distances).toEqual([
      [10, 20],
      [20, 10],
    ]);
  });

  it('knows a 2.6.32 kernel predates CMA, and guesses the clock it cannot read', () => {
    expect(m.kernel.version).toBe('2.6.32-431.el6.x86_64');
    expect(m.kernel.mechanisms.cma).toBe(false);
    // AMD model strings name no clock; the Opteron 2356 is a Barcelona, whose row gives its reference clock.
    expect(m.cores[0].frequencyGHz).toBe(row('k10-barcelona').clockGHz);
    expect(m.guessed).toContain('cores[0].frequencyGHz');
  });
});

describe('hwloc v1 files holding several machines', () => {
  const text = fixture('v1-two-machines.xml');

  it('are refused with what they hold and how to pick one', () => {
    const e = inputErrorOf(() => importHwlocXml(text, 'cluster.xml'));
    expect(e.message).toBe(
      "cluster.xml:6:3: this hwloc file holds 2 machines under one System (0: 'node-a', 2 cores; 1: 'node-b', 4 cores); pick one with --hwloc-machine N (0-based)",
    );
  });

  it('yield the machine asked for', () => {
    const a = importHwlocXml(text, 'cluster.xml', { hwlocMachine: 0 });
    const b = importHwlocXml(text, 'cluster.xml', { hwlocMachine: 1 });
    expect(a.cores).toHaveLength(2);
    expect(a.packages).toHaveLength(1);
    expect(b.cores).toHaveLength(4);
    expect(b.packages).toHaveLength(2);
    expect([a.name, b.name]).toEqual(['cluster/node-a', 'cluster/node-b']);
    expectConsistent(a);
    expectConsistent(b);
  });

  it('name the machine on one line whatever host name the file records', () => {
    const odd = text.replace('value="node-a"', 'value="node&#9;a&#10;b"');
    expect(importHwlocXml(odd, 'cluster.xml', { hwlocMachine: 0 }).name).toBe('cluster/node a b');
  });

  it('refuse a machine number the file lacks', () => {
    expect(inputErrorOf(() => importHwlocXml(text, 'cluster.xml', { hwlocMachine: 2 })).detail).toBe(
      "--hwloc-machine 2: this hwloc file holds machines 0..1 (0: 'node-a', 2 cores; 1: 'node-b', 4 cores)",
    );
    const one = fixture('v1-numa-sockets.xml');
    expect(inputErrorOf(() => importHwlocXml(one, 'v1-numa-sockets.xml', { hwlocMachine: 1 })).detail).toBe(
      '--hwloc-machine 1: this hwloc file holds one machine (use 0 or leave the option out)',
    );
    expect(importHwlocXml(one, 'v1-numa-sockets.xml', { hwlocMachine: 0 })).toEqual(load('v1-numa-sockets.xml'));
  });
});

describe('unusual trees', () => {
  it('gives an SMP file without packages or NUMA nodes one of each; a bare PU is a core', () => {
    const m = load('smp-no-numa.xml');
    expectConsistent(m);
    expect(m.packages).toHaveLength(1);
    expect(m.numaNodes.map((n) => [n.id, n.attach])).toEqual([[0, 'pkg0']]);
    expect(m.cores.map((c) => c.id)).toEqual([0, 1, 2]);
    expect(m.guessed).toEqual(expect.arrayContaining(['packages[0]', 'numaNodes[0]', 'numaNodes[0].memoryBytes']));
  });

  it('handles nested groups, Misc, Die, a memory-side cache and a memory-only MCDRAM node', () => {
    const m = load('unusual-tree.xml');
    expectConsistent(m);
    expect(m.cores.map((c) => [c.id, c.numa])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
    const hbm = m.numaNodes.find((n) => n.id === 1)!;
    expect(hbm.kind).toBe('hbm');
    // A Xeon Phi 7210: the Knights Landing row gives its one MCDRAM node the whole chip's bandwidth.
    expect(hbm.bandwidth).toBe(row('knights-landing').hbm!.bandwidth);
    expect(m.hubs.map((h) => h.id)).toEqual([hbm.attach]);
    expect(m.links.map((l) => [l.a, l.b])).toEqual([['pkg0', hbm.attach]]);
    const memSide = m.caches.filter((c) => c.memorySide);
    expect(memSide).toHaveLength(1);
    expect(memSide[0].cores).toEqual([0, 1, 2, 3]);
    expect(m.cores[0].frequencyGHz).toBe(1.3);
  });
});

describe('links from a distance matrix', () => {
  const pkg = (id: number): LinkVertex => ({ id: `pkg${id}`, kind: 'package', packages: [id], numa: [id] });

  it('builds a full mesh when nothing says otherwise', () => {
    const links = buildLinks([pkg(0), pkg(1), pkg(2), pkg(3)], undefined, []);
    expect(links).toHaveLength(6);
    expect(links.every((l) => l.latencyNs === IMPORT_DEFAULTS.link.latencyNs)).toBe(true);
  });

  it('drops a pair whose distance a path through a third package explains (Opteron ring)', () => {
    // 0-1-3-2-0 ring: neighbours 16, opposite corners 22 = local + two hops of 6.
    const d = [
      [10, 16, 16, 22],
      [16, 10, 22, 16],
      [16, 22, 10, 16],
      [22, 16, 16, 10],
    ];
    const guessed: string[] = [];
    const links = buildLinks([pkg(0), pkg(1), pkg(2), pkg(3)], { ids: [0, 1, 2, 3], values: d }, guessed);
    expect(links.map((l) => l.name).sort()).toEqual(['pkg0-pkg1', 'pkg0-pkg2', 'pkg1-pkg3', 'pkg2-pkg3']);
    expect(guessed).toContain('links[3].latencyNs');
  });

  it('scales latency by distance relative to the nearest pair', () => {
    const d = [
      [10, 20, 30],
      [20, 10, 30],
      [30, 30, 10],
    ];
    const links = buildLinks([pkg(0), pkg(1), pkg(2)], { ids: [0, 1, 2], values: d }, []);
    const latency = Object.fromEntries(links.map((l) => [l.name, l.latencyNs]));
    expect(latency['pkg0-pkg1']).toBe(IMPORT_DEFAULTS.link.latencyNs);
    expect(latency['pkg0-pkg2']).toBe(2 * IMPORT_DEFAULTS.link.latencyNs);
  });
});

describe('a NUMA node without memory', () => {
  it('is imported with its size guessed and listed as such, as the host detection does', () => {
    const xml =
      '<topology><object type="Machine"><object type="NUMANode" os_index="0" local_memory="0"><object type="PU" os_index="0"/></object></object></topology>';
    const m = importHwlocXml(xml, 't.xml');
    expect(m.numaNodes[0].memoryBytes).toBeGreaterThan(0);
    expect(m.guessed).toContain('numaNodes[0].memoryBytes');
  });
});

describe('malformed input', () => {
  it.each([
    [
      'malformed-unclosed.xml',
      /malformed-unclosed\.xml:5:3: closing tag <\/objekt> does not match <object> opened at line 3/,
    ],
    ['malformed-html.xml', /malformed-html\.xml:1:1: this is an HTML page, not hwloc XML/],
    [
      'malformed-bad-memory.xml',
      /malformed-bad-memory\.xml:4:5 \(object\[type=NUMANode\]\.local_memory\): local_memory="sixteen gigabytes"/,
    ],
    ['malformed-distances.xml', /malformed-distances\.xml:7:3 .*holds 3 values, expected nbobjs\^2 = 4/],
  ])('%s is an InputError naming file, line and column', (name, message) => {
    expect(() => load(name)).toThrow(InputError);
    expect(() => load(name)).toThrow(message);
  });

  it.each([
    ['', /empty/],
    ['hello, world', /t\.xml:1:1: not an XML file/],
    ['{"topology": 1}', /not an XML file/],
    ['<?xml version="1.0"?>\n<machine/>', /t\.xml:2:1: root element is <machine>, not <topology>/],
    ['<html><body><br><p>x</body></html>', /HTML page/],
    ['<topology>\n</topology>', /holds no <object>/],
    [
      '<topology><object type="Machine">\n<object type="Packge"><object type="PU" os_index="0"/></object></object></topology>',
      /t\.xml:2:1 \(object\[type=Packge\]\.type\): unknown object type 'Packge' \(did you mean 'Package'\?\)/,
    ],
    [
      '<topology><object type="Machine">\n<object type="L3Cahce" cache_size="8388608"><object type="PU" os_index="0"/></object></object></topology>',
      /t\.xml:2:1 \(object\[type=L3Cahce\]\.type\): unknown object type 'L3Cahce' \(did you mean 'L3Cache'\?\)/,
    ],
    ['<topology><object type="Machine"/></topology>', /no PU objects/],
    ['<topology><object type="Machine"><object type="PU"/></object></topology>', /PU without os_index/],
    [
      '<topology><object type="Machine"><object type="PU" os_index="0"/><object type="PU" os_index="0"/></object></topology>',
      /appears twice/,
    ],
    [
      '<topology>\n  <object type="Machine" cpuset="0xzz"><object type="PU" os_index="0"/></object></topology>',
      /t\.xml:2:3 .*not an hwloc bitmap/,
    ],
    ['<topology><object type="Machine" os_index="0></object></topology>', /unterminated value of attribute os_index/],
    [
      '<topology><object type="Machine"><object type="PU" os_index="0"/>',
      /t\.xml:1:11: element <object> is never closed/,
    ],
    ['<topology><object type="M&bogus;"/></topology>', /unknown entity/],
  ])('rejects %j', (text, message) => {
    const error = inputErrorOf(() => importHwlocXml(text, 't.xml'));
    expect(error.message).toMatch(message);
    expect(error.location.file).toBe('t.xml');
  });

  it('parses entities and keeps element positions', () => {
    const root = parseXml('<a x="&lt;&#65;&#x42;&amp;">\n  <b/>text&gt;</a>', 'p.xml');
    expect(root.attrs.get('x')).toBe('<AB&');
    expect(root.children[0]).toMatchObject({ name: 'b', line: 2, column: 3 });
    expect(root.text).toBe('\n  text>');
  });

  it('random mutations and truncations either import or throw an InputError naming file and line', () => {
    const bytes = new TextEncoder().encode(fixture('v2-two-socket.xml'));
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), byte: fc.constant(0) }),
      fc.record({
        kind: fc.constant('insert' as const),
        at: fc.nat(),
        byte: fc.constantFrom(...'<>"=/&;x0 '.split('').map((c) => c.charCodeAt(0))),
      }),
    );
    // Half the cases keep the whole file: a truncation nearly always breaks the XML, and by default
    // fast-check truncated five cases in six, so that the "whatever imports" half ran on a handful.
    let imported = 0;
    const runs = Number(process.env.FUZZ_RUNS ?? 400);
    fc.assert(
      fc.property(
        fc.array(edit, { minLength: 1, maxLength: 6 }),
        fc.option(fc.nat(), { nil: undefined, freq: 2 }),
        (edits, cut) => {
          const mutated = [...bytes];
          for (const e of edits) {
            const at = e.at % (mutated.length + 1);
            if (e.kind === 'set' && at < mutated.length) mutated[at] = e.byte;
            else if (e.kind === 'delete') mutated.splice(at, 1);
            else if (e.kind === 'insert') mutated.splice(at, 0, e.byte);
          }
          const kept = cut === undefined ? mutated : mutated.slice(0, cut % (mutated.length + 1));
          const text = new TextDecoder().decode(new Uint8Array(kept));
          let machine: MachineSpec;
          try {
            machine = importHwlocXml(text, 'mutant.xml');
          } catch (error) {
            if (!(error instanceof InputError)) throw error;
            expect(error.location.file).toBe('mutant.xml');
            expect(error.location.line).toBeGreaterThanOrEqual(1);
            expect(error.message.startsWith(`mutant.xml:${error.location.line}`)).toBe(true);
            return;
          }
          // Whatever imports must be a machine the simulator accepts.
          imported++;
          expectConsistent(machine);
        },
      ),
      { numRuns: runs, seed: 20240611 },
    );
    // The import half does run (28 of the 400 seeded cases import; 6 did with five in six truncated).
    expect(imported).toBeGreaterThanOrEqual(Math.floor(runs / 25));
  });
});

const haveReal = existsSync(realDir);

describe.skipIf(!haveReal)('real hwloc topologies (skipped: ../shared/topologies/hwloc/ is absent)', () => {
  const real = (name: string) => importHwlocXml(readFileSync(realDir + name, 'utf8'), name);
  const files = haveReal ? readdirSync(realDir).filter((f) => f.endsWith('.xml')) : [];

  it('imports every file into a consistent machine', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expectConsistent(real(f));
  });

  it('24em64t-2n6c2t-pci: 2 packages, 12 cores x 2 threads, 2 NUMA nodes, an InfiniBand HCA on package 0', () => {
    const m = real('24em64t-2n6c2t-pci.xml');
    expect(m.packages).toHaveLength(2);
    expect(m.cores).toHaveLength(12);
    expect(m.cores.every((c) => c.threads === 2)).toBe(true);
    expect(m.numaNodes.map((n) => n.attach)).toEqual(['pkg0', 'pkg1']);
    const hca = m.nics.find((n) => n.id === 'mlx4_0')!;
    expect(hca.model).toMatch(/Mellanox/);
    expect(m.ioBuses.find((b) => b.id === hca.bus)!.attach).toBe('pkg0');
    expect(m.caches.filter((c) => c.level === 3).map((c) => c.cores.length)).toEqual([6, 6]);
    expect(m.kernel.mechanisms.cma).toBe(false); // 2.6.27
    // "82576 Gigabit": 1 Gb/s on the wire, below the 0.2 GB/s of its PCIe link, and sourced by its name.
    const eth = m.nics.filter((n) => /Gigabit/.test(n.model));
    expect(eth.map((n) => n.bandwidth)).toEqual([0.125, 0.125]);
    for (const n of eth) expect(m.guessed).not.toContain(`nics[${m.nics.indexOf(n)}].bandwidth`);
  });

  it('reads an Ethernet wire speed from the product name, not the controller number', () => {
    expect(
      [
        'Intel Corporation 82576 Gigabit Network Connection',
        'Ethernet Controller X710 for 10GbE SFP+',
        'Ethernet Controller XXV710 for 25GbE SFP28',
        'Ethernet Controller E810-C for 100 Gigabit',
        '82599ES 10-Gigabit SFI/SFP+ Network Connection',
        'Ethernet Controller I225-V 2.5GbE',
        'MT27500 Family [ConnectX-3]',
        undefined,
      ].map(wireSpeedInName),
    ).toEqual([0.125, 1.25, 3.125, 12.5, 1.25, 0.3125, undefined, undefined]);
  });

  it('32em64t-2n8c2t-pci-normalio: 16 cores, a ConnectX-4 on package 1', () => {
    const m = real('32em64t-2n8c2t-pci-normalio.xml');
    expect([m.packages.length, m.cores.length, m.numaNodes.length]).toEqual([2, 16, 2]);
    const hca = m.nics.find((n) => /ConnectX-4/.test(n.model))!;
    expect(m.ioBuses.find((b) => b.id === hca.bus)!.attach).toBe('pkg1');
    expect(m.cores[0].frequencyGHz).toBe(2);
  });

  it('16em64t-4s2c2t: four sockets share one memory hub (front-side bus)', () => {
    const m = real('16em64t-4s2c2t.xml');
    expect([m.packages.length, m.cores.length, m.numaNodes.length]).toEqual([4, 8, 1]);
    expect(m.hubs).toHaveLength(1);
    expect(m.numaNodes[0].attach).toBe(m.hubs[0].id);
    expect(m.links.every((l) => l.b === m.hubs[0].id)).toBe(true);
    expect(m.links).toHaveLength(4);
  });

  it('16amd64-8n2c-cpusets: cores whose node is disallowed still get one; memory-only nodes get hubs', () => {
    const m = real('16amd64-8n2c-cpusets.xml');
    expect(m.numaNodes.map((n) => n.id)).toEqual([1, 2, 3, 4, 5]);
    // OS package indices 0,1,2,3,6,7 become 0..5; cores 12-15 sat in OS packages 6 and 7.
    expect(m.packages.map((p) => p.id)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(m.cores.filter((c) => c.id >= 12).map((c) => c.package)).toEqual([4, 4, 5, 5]);
    expect(m.cores).toHaveLength(10);
    expect(m.hubs.map((h) => h.id).sort()).toEqual(['numa4', 'numa5']);
    expect(m.distances).toHaveLength(5);
    expect(m.guessed).toContain('cores[0].numa');
  });

  it('64intel64-heteromem: HBM nodes, memory-side caches and bandwidths from memory attributes', () => {
    const m = real('64intel64-heteromem.xml');
    expect(m.cores).toHaveLength(16);
    expect(m.cores.every((c) => c.threads === 4)).toBe(true);
    expect(m.numaNodes.filter((n) => n.kind === 'hbm')).toHaveLength(4);
    // Cores prefer their quadrant's DRAM node over the HBM one.
    expect(m.cores.every((c) => m.numaNodes.find((n) => n.id === c.numa)!.kind === 'dram')).toBe(true);
    // hwloc's four quadrant caches (2 GiB each) are one in the model, which has one for every core.
    const memorySide = m.caches.filter((c) => c.memorySide);
    expect(memorySide.map((c) => [c.sizeBytes, c.cores.length])).toEqual([[8 * 2 ** 30, 16]]);
    const row = PROCESSOR_ROWS.find((r) => r.id === 'knights-landing')!.memorySideCache!;
    expect(memorySide[0].bandwidth).toBeCloseTo(row.bandwidth, 9);
    const hbm = m.numaNodes.find((n) => n.kind === 'hbm')!;
    expect(hbm.bandwidth).toBeCloseTo((90000 * 2 ** 20) / 1e9, 6);
    expect(m.guessed).not.toContain(`numaNodes[${m.numaNodes.indexOf(hbm)}].bandwidth`);
  });

  it('fakeheterodistances: 8 NUMA nodes in 4 packages, the homogeneous matrix wins', () => {
    const m = real('fakeheterodistances.xml');
    expect([m.packages.length, m.numaNodes.length]).toEqual([4, 8]);
    expect(m.distances![0]).toEqual([10, 16, 16, 22, 16, 22, 16, 22]);
  });

  it('power8gpudistances: POWER pages, NVLink bandwidth matrix ignored', () => {
    const m = real('power8gpudistances.xml');
    expect(m.kernel.pageBytes).toBe(IMPORT_DEFAULTS.kernel.pageBytesPower);
    expect(m.distances).toEqual([
      [10, 40],
      [40, 10],
    ]);
    expect(m.nics).toHaveLength(0);
  });

  it('16-2gr2gr2n2c+misc: nested groups without packages', () => {
    const m = real('16-2gr2gr2n2c+misc.xml');
    expect([m.packages.length, m.cores.length, m.numaNodes.length]).toEqual([1, 16, 8]);
    expect(m.cores.map((c) => c.numa)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]);
  });
});
