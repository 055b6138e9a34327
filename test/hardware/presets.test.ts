import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { InputError } from '../../common/input-error.ts';
import { listPresets, loadPreset, presetNames, presetPath } from '../../hardware/presets.ts';
import { plainDescription } from '../../hardware/preset-list.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { validateMachine } from '../../hardware/validate.ts';

const REQUIRED = [
  'zoot',
  'dancer',
  'saturn',
  'ig',
  'westmere',
  'barcelona',
  'dunnington',
  'broadwell',
  'knl',
  'power8',
  'opteron-nuioa',
  'epyc-genoa',
  'sapphire-rapids',
  'lynnfield',
];
const MiB = 2 ** 20;
const PROSE_OR_NAME = ['level', 'name', 'description', 'model', 'id'];

const caches = (spec: MachineSpec, level: number) => spec.caches.filter((c) => c.level === level && !c.memorySide);
const coresPerNuma = (spec: MachineSpec) => spec.numaNodes.map((n) => spec.cores.filter((c) => c.numa === n.id).length);

describe('presets', () => {
  it('lists every required machine with a description', () => {
    const listed = listPresets();
    expect(listed.map((p) => p.name)).toEqual(expect.arrayContaining(REQUIRED));
    for (const p of listed) expect(p.description.length).toBeGreaterThan(10);
    // The listing reads descriptions without loading the machines: it must say what loading says.
    for (const p of listed) expect(p.description).toBe(loadPreset(p.name).description);
  });

  it('reads a description from its line only where YAML reads that line as the same string', () => {
    const lines = [
      'description: Two sockets of four cores',
      'description: 100 cores, 2.5 GHz',
      'description: "Quoted: a colon inside"',
      "description: 'single quoted'",
      'description: with a comment # here',
      'description: with a tab\t# comment',
      'description: a: b',
      'description: >\n  folded\n  text',
      'description: |\n  literal',
      'description: [flow, list]',
      'description: &anchor anchored',
      'description: !tag tagged',
      'description: ? key',
      'description: - item',
      'description: first part\n  continued',
      'description: trailing   ',
      'description: 42',
      'description: 1.5e3',
      'description: true',
      'description: null',
    ];
    for (const line of lines) {
      const text = `name: x\n${line}\ncores: []\n`;
      const plain = plainDescription(text);
      if (plain === undefined) continue;
      const read = parseDocument(text).toJS() as { description: unknown };
      expect(read.description, line).toBe(plain);
    }
    expect(lines.filter((l) => plainDescription(`name: x\n${l}\ncores: []\n`) !== undefined)).toEqual([
      'description: Two sockets of four cores',
      'description: 100 cores, 2.5 GHz',
    ]);
  });

  it.each(REQUIRED)('%s loads and passes validation', (name) => {
    const spec = loadPreset(name);
    expect(spec.name).toBe(name);
    expect(spec.origin).toBe(`preset:${name}`);
    expect(() => validateMachine(spec)).not.toThrow();
  });

  it('every preset kernel older than 3.2 offers no CMA (process_vm_readv arrived in 3.2)', () => {
    for (const name of presetNames()) {
      const k = loadPreset(name).kernel;
      const [major, minor] = k.version.split('.').map(Number);
      if (major < 3 || (major === 3 && minor < 2)) expect(k.mechanisms.cma, name).toBe(false);
    }
  });

  it('zoot: 16 cores, L2 per core pair, one NUMA node behind a north-bridge hub with four FSBs', () => {
    const s = loadPreset('zoot');
    expect(s.cores).toHaveLength(16);
    expect(s.packages).toHaveLength(4);
    expect(s.numaNodes).toHaveLength(1);
    expect(s.hubs.map((h) => h.id)).toEqual(['northbridge']);
    expect(s.numaNodes[0].attach).toBe('northbridge');
    expect(s.numaNodes[0].memoryBytes).toBe(32 * 1024 * MiB);
    expect(s.links.filter((l) => l.a === 'northbridge' || l.b === 'northbridge')).toHaveLength(4);
    const l2 = caches(s, 2);
    expect(l2).toHaveLength(8);
    for (const c of l2) {
      expect(c.sizeBytes).toBe(4 * MiB);
      expect(c.cores).toHaveLength(2);
    }
    expect(s.cores.every((c) => c.frequencyGHz === 2.4)).toBe(true);
  });

  it('dancer, saturn, westmere: two sockets, one node each, seed cache sizes', () => {
    const expectations: [string, number, number, number][] = [
      ['dancer', 8, 8, 1],
      ['saturn', 16, 18, 2],
      ['westmere', 12, 12, 2],
    ];
    for (const [name, cores, l3MiB, threads] of expectations) {
      const s = loadPreset(name);
      expect(s.cores, name).toHaveLength(cores);
      expect(s.numaNodes, name).toHaveLength(2);
      expect(coresPerNuma(s), name).toEqual([cores / 2, cores / 2]);
      expect(
        caches(s, 3).map((c) => c.sizeBytes),
        name,
      ).toEqual([l3MiB * MiB, l3MiB * MiB]);
      expect(s.cores[0].threads, name).toBe(threads);
    }
  });

  it('ig: 48 cores, 8 NUMA nodes, two boards joined by one link slower than the on-board ones', () => {
    const s = loadPreset('ig');
    expect(s.cores).toHaveLength(48);
    expect(s.numaNodes).toHaveLength(8);
    expect(coresPerNuma(s)).toEqual(Array(8).fill(6));
    expect(caches(s, 3)).toHaveLength(8);
    expect(caches(s, 3)[0].sizeBytes).toBe(5 * MiB);
    expect(caches(s, 2)).toHaveLength(48);
    expect(caches(s, 2)[0].sizeBytes).toBe(512 * 1024);
    const board = (v: string) => (Number(v.slice(3)) < 4 ? 0 : 1);
    const cross = s.links.filter((l) => board(l.a) !== board(l.b));
    const onBoard = s.links.filter((l) => board(l.a) === board(l.b));
    expect(cross).toHaveLength(1);
    expect(onBoard).toHaveLength(12);
    expect(Math.max(...cross.map((l) => l.bandwidth))).toBeLessThan(Math.min(...onBoard.map((l) => l.bandwidth)));
  });

  it('barcelona: 4 x 4 cores, 4 NUMA nodes, 2 MiB L3', () => {
    const s = loadPreset('barcelona');
    expect(s.cores).toHaveLength(16);
    expect(s.numaNodes).toHaveLength(4);
    expect(caches(s, 3).every((c) => c.sizeBytes === 2 * MiB && c.cores.length === 4)).toBe(true);
  });

  it('lynnfield: one socket of 4 cores sharing an 8 MiB L3, one NUMA node, KNEM without I/OAT', () => {
    const s = loadPreset('lynnfield');
    expect(s.cores).toHaveLength(4);
    expect(s.numaNodes).toHaveLength(1);
    expect(s.links).toHaveLength(0);
    expect(caches(s, 3).map((c) => [c.sizeBytes, c.cores.length])).toEqual([[8 * MiB, 4]]);
    expect(s.kernel.mechanisms).toMatchObject({ knem: true, ioat: false, cma: false });
  });

  it('dunnington: 96 cores, 16 sockets, four NUMA nodes each attached to its own hub', () => {
    const s = loadPreset('dunnington');
    expect(s.cores).toHaveLength(96);
    expect(s.packages).toHaveLength(16);
    expect(s.numaNodes).toHaveLength(4);
    expect(coresPerNuma(s)).toEqual([24, 24, 24, 24]);
    const hubs = new Set(s.hubs.map((h) => h.id));
    expect(new Set(s.numaNodes.map((n) => n.attach))).toEqual(hubs);
    expect(hubs.size).toBe(4);
    expect(caches(s, 3)).toHaveLength(16);
    expect(caches(s, 2)).toHaveLength(48);
  });

  it('broadwell: 2 x 14 cores, 35 MiB L3, an EDR NIC', () => {
    const s = loadPreset('broadwell');
    expect(s.cores).toHaveLength(28);
    expect(caches(s, 3).map((c) => c.sizeBytes)).toEqual([35 * MiB, 35 * MiB]);
    expect(s.nics).toHaveLength(1);
    expect(s.kernel.mechanisms.xpmem && s.kernel.mechanisms.cma).toBe(true);
  });

  it('knl: 68 cores, 1 MiB L2 per 2-core tile, 16 GiB MCDRAM memory-side cache over one DDR node', () => {
    const s = loadPreset('knl');
    expect(s.cores).toHaveLength(68);
    expect(s.numaNodes).toHaveLength(1);
    expect(s.numaNodes[0].kind).toBe('dram');
    const l2 = caches(s, 2);
    expect(l2).toHaveLength(34);
    expect(l2.every((c) => c.sizeBytes === MiB && c.cores.length === 2)).toBe(true);
    const mcdram = s.caches.filter((c) => c.memorySide);
    expect(mcdram).toHaveLength(1);
    expect(mcdram[0].sizeBytes).toBe(16 * 1024 * MiB);
    expect(mcdram[0].cores).toHaveLength(68);
  });

  it('power8: 2 x 10 SMT8 cores, 8 MiB L3 per core, an L4, 64 KiB pages', () => {
    const s = loadPreset('power8');
    expect(s.cores).toHaveLength(20);
    expect(s.cores.every((c) => c.threads === 8)).toBe(true);
    expect(caches(s, 3)).toHaveLength(20);
    expect(caches(s, 3).every((c) => c.sizeBytes === 8 * MiB && c.cores.length === 1)).toBe(true);
    expect(caches(s, 4)).toHaveLength(2);
    expect(s.kernel.pageBytes).toBe(64 * 1024);
  });

  it('opteron-nuioa: 4 NUMA nodes, two with their own I/O bus and one InfiniBand NIC each', () => {
    const s = loadPreset('opteron-nuioa');
    expect(s.cores).toHaveLength(8);
    expect(s.numaNodes).toHaveLength(4);
    expect(s.ioBuses.map((b) => b.attach).sort()).toEqual(['pkg0', 'pkg1']);
    expect(s.nics).toHaveLength(2);
    expect(new Set(s.nics.map((n) => n.bus)).size).toBe(2);
    expect(s.nics.every((n) => n.model.includes('InfiniBand'))).toBe(true);
    expect(s.routing.kind).toBe('table');
  });

  it('current machines: epyc-genoa 192 cores with an L3 per CCD, sapphire-rapids 112 cores', () => {
    const genoa = loadPreset('epyc-genoa');
    expect(genoa.cores).toHaveLength(192);
    expect(genoa.numaNodes).toHaveLength(2);
    expect(caches(genoa, 3)).toHaveLength(24);
    expect(caches(genoa, 3).every((c) => c.sizeBytes === 32 * MiB && c.cores.length === 8)).toBe(true);
    const spr = loadPreset('sapphire-rapids');
    expect(spr.cores).toHaveLength(112);
    expect(caches(spr, 3).map((c) => c.sizeBytes)).toEqual([105 * MiB, 105 * MiB]);
  });

  // Every constant must carry its source. A scalar that is a number, or text starting with a digit
  // ("4MiB", "2.6.32", "100ns"), must have a comment on its line. Cache levels, prose and names
  // are not constants.
  it.each(REQUIRED)('%s: every numeric value has a source comment on its line', (name) => {
    const text = readFileSync(presetPath(name), 'utf8');
    const lines = text.split('\n');
    const counter = new LineCounter();
    const doc = parseDocument(text, { lineCounter: counter });
    const missing: string[] = [];
    visit(doc, {
      Pair(_, pair) {
        if (isScalar(pair.key) && PROSE_OR_NAME.includes(String(pair.key.value))) return visit.SKIP;
        return undefined;
      },
      Scalar(_, node) {
        const numeric = typeof node.value === 'number' || (typeof node.value === 'string' && /^\d/.test(node.value));
        if (!numeric || !node.range) return;
        const line = counter.linePos(node.range[0]).line;
        if (!lines[line - 1].includes('#')) missing.push(`${line}: ${lines[line - 1].trim()}`);
      },
    });
    expect(missing).toEqual([]);
  });

  it('names an unknown preset with a suggestion', () => {
    expect(() => loadPreset('zot')).toThrow(InputError);
    expect(() => loadPreset('zot')).toThrow(/unknown preset 'zot' \(did you mean 'zoot'\?\)/);
    expect(() => loadPreset('nothing-like-it')).toThrow(/known presets: .*dancer/);
  });

  it('hands out independent copies', () => {
    const a = loadPreset('dancer');
    a.cores.length = 0;
    expect(loadPreset('dancer').cores).toHaveLength(8);
  });
});
