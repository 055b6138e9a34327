import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveMachine } from '../../hardware/index.ts';
import { InputError } from '../../common/input-error.ts';
import { parseMachineYaml } from '../../hardware/machine-file.ts';
import { loadMachineFile } from '../../hardware/machine-file-read.ts';
import { validateMachine } from '../../hardware/validate.ts';
import { inputErrorOf } from '../helpers/input-error.ts';
import { Topology } from '../../sim/node/topology.ts';

const FILE = 'lab/box.yaml';

// A small machine that uses every part of the format: a package group with shared caches, a hub,
// an explicit NUMA list, every link shape, a routing table, a memory-side cache and I/O.
const VALID = `name: box
description: test machine
packages:
  - count: 3
    model: Test CPU
    cores: 4
    threads: 2
    frequency: 2400MHz
    caches:
      - level: 1
        size: 32KiB
        bandwidth: 64GB/s
        latency: 1.5ns
      - level: 2
        size: 1MiB
        sharedBy: 2
        bandwidth: 50
        latency: 5
      - level: 3
        size: 8MiB
        sharedBy: package
        bandwidth: 40
        latency: 15
hubs:
  - id: switch
    description: board switch
caches:
  - id: side
    level: 4
    size: 1GiB
    memorySide: true
    bandwidth: 200
    latency: 0.1us
numa:
  - attach: pkg0
    cores: "0-3"
    memory: 4GiB
    bandwidth: 10
    latency: 80
  - attach: switch
    packages: [1, 2]
    memory: 8GiB
    bandwidth: 12
    latency: 90
    kind: hbm
links:
  - between: [pkg0, pkg1]
    name: fast
    bandwidth: 10
    latency: 40
  - mesh: [pkg1, pkg2, switch]
    label: HT
    bandwidth: 8
    latency: 30
  - from: switch
    to: [pkg0]
    label: cable
    bandwidth: 2
    latency: 100
routing:
  table:
    pkg0->pkg2: [pkg0, pkg1, pkg2]
ioBuses:
  - id: pci0
    attach: pkg2
    bandwidth: 4
    nics:
      - id: nic0
        model: Test NIC
        bandwidth: 3
        dmaBytes: 256
costs:
  copyBandwidth: 10
  reduceBandwidth: 5
kernel:
  version: "4.10"
  mechanisms: [cma, knem]
  syscall: 100ns
  pageSize: 4KiB
  pinPerPage: 50
  cmaLock: shared
  params:
    knemCreateNs: 750
distances:
  - [10, 20]
  - [20, 10]
guessed: ["numa[0].bandwidth"]
`;

/** Replaces the first occurrence of `from` in VALID, failing loudly if it is not there. */
function edit(from: string, to: string): string {
  expect(VALID.includes(from), `fixture lacks ${JSON.stringify(from)}`).toBe(true);
  return VALID.replace(from, to);
}

function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split('\n').length;
}

const inputError = (text: string): InputError => inputErrorOf(() => parseMachineYaml(text, FILE));

describe('parseMachineYaml: a valid file', () => {
  const spec = parseMachineYaml(VALID, FILE);

  it('expands package groups into packages, packed core ids and shared caches', () => {
    expect(spec.packages.map((p) => p.id)).toEqual([0, 1, 2]);
    expect(spec.cores.map((c) => c.id)).toEqual([...Array(12).keys()]);
    expect(spec.cores[5]).toEqual({ id: 5, package: 1, numa: 1, frequencyGHz: 2.4, threads: 2 });
    const l2 = spec.caches.filter((c) => c.level === 2);
    expect(l2.map((c) => c.cores)).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
      [6, 7],
      [8, 9],
      [10, 11],
    ]);
    expect(spec.caches.filter((c) => c.level === 3).map((c) => c.cores)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9, 10, 11],
    ]);
    expect(spec.caches.filter((c) => c.level === 1)).toHaveLength(12);
    expect(spec.caches.find((c) => c.level === 1)).toMatchObject({
      id: 'L1#0',
      sizeBytes: 32768,
      bandwidth: 64,
      latencyNs: 1.5,
    });
  });

  it('reads units for sizes, bandwidths, durations and frequencies', () => {
    const side = spec.caches.find((c) => c.id === 'side')!;
    expect(side).toMatchObject({ level: 4, sizeBytes: 2 ** 30, memorySide: true, latencyNs: 100 });
    expect(side.cores).toHaveLength(12);
    expect(spec.kernel).toMatchObject({
      version: '4.10',
      syscallNs: 100,
      pageBytes: 4096,
      pinPerPageNs: 50,
      cmaLockMode: 'shared',
    });
    expect(spec.kernel.mechanisms).toEqual({ cma: true, knem: true, xpmem: false, limic: false, ioat: false });
    expect(spec.kernel.params).toEqual({ knemCreateNs: 750 });
  });

  it('places NUMA nodes on packages or hubs and gives each core exactly one', () => {
    expect(spec.numaNodes).toEqual([
      { id: 0, attach: 'pkg0', memoryBytes: 4 * 2 ** 30, bandwidth: 10, latencyNs: 80, kind: 'dram' },
      { id: 1, attach: 'switch', memoryBytes: 8 * 2 ** 30, bandwidth: 12, latencyNs: 90, kind: 'hbm' },
    ]);
    expect(spec.cores.map((c) => c.numa)).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('expands link shapes, keeps the routing table, I/O and the rest', () => {
    expect(spec.links.map((l) => [l.name, l.a, l.b])).toEqual([
      ['fast', 'pkg0', 'pkg1'],
      ['HT pkg1-pkg2', 'pkg1', 'pkg2'],
      ['HT pkg1-switch', 'pkg1', 'switch'],
      ['HT pkg2-switch', 'pkg2', 'switch'],
      ['cable switch-pkg0', 'switch', 'pkg0'],
    ]);
    expect(spec.routing).toEqual({ kind: 'table', routes: { 'pkg0->pkg2': ['pkg0', 'pkg1', 'pkg2'] } });
    expect(spec.ioBuses).toEqual([{ id: 'pci0', attach: 'pkg2', bandwidth: 4 }]);
    expect(spec.nics).toEqual([{ id: 'nic0', model: 'Test NIC', bus: 'pci0', bandwidth: 3, dmaBytes: 256 }]);
    expect(spec.distances).toEqual([
      [10, 20],
      [20, 10],
    ]);
    expect(spec.guessed).toEqual(['numa[0].bandwidth']);
    expect(spec.origin).toBe(FILE);
    expect(() => validateMachine(spec)).not.toThrow();
  });

  it('is deterministic', () => {
    expect(parseMachineYaml(VALID, FILE)).toEqual(spec);
  });

  it('loads the complete example of docs/machine-format.md', () => {
    const doc = readFileSync(new URL('../../docs/machine-format.md', import.meta.url), 'utf8');
    const example = doc.slice(doc.indexOf('## A complete example')).match(/```yaml\n([\s\S]*?)```/)![1];
    const machine = parseMachineYaml(example, 'docs/machine-format.md');
    expect(machine.cores).toHaveLength(16);
    expect(machine.numaNodes.map((n) => n.attach)).toEqual(['pkg0', 'pkg1', 'switch1']);
  });

  it('takes the name from the file when none is given', () => {
    expect(parseMachineYaml(edit('name: box\n', ''), 'dir/my-node.yml').name).toBe('my-node');
  });

  it('refuses a name a report could not print on its line', () => {
    expect(() => parseMachineYaml(edit('name: box\n', 'name: "b\\nox"\n'), 'm.yaml')).toThrow(
      'm.yaml:1:7 (name): name must be printable on one line: it holds a line break',
    );
  });
});

describe('parseMachineYaml: errors name file, line, column and field', () => {
  it('YAML syntax errors', () => {
    const text = edit('    cores: 4\n', '    cores: [4\n');
    const e = inputError(text);
    expect(e.location.file).toBe(FILE);
    expect(e.location.line).toBeGreaterThan(1);
    // Points at the line where the unclosed list opened, and names the field it is the value of.
    expect(e.location).toMatchObject({ line: lineOf(text, '    cores: [4'), column: 12, field: 'packages[0].cores' });
    expect(e.message).toMatch(
      /^lab\/box\.yaml:\d+:\d+ \(packages\[0\]\.cores\): YAML syntax error: the list opened here is not closed with '\]'/,
    );
  });

  it('duplicate keys', () => {
    const e = inputError(edit('    cores: 4\n', '    cores: 4\n    cores: 5\n'));
    expect(e.message).toMatch(/YAML syntax error: .*unique/i);
    expect(e.location.line).toBe(lineOf(VALID, '    cores: 4') + 1);
    expect(e.location.field).toBe('packages[0].cores');
  });

  it('unknown keys, with a suggestion', () => {
    const text = edit('        bandwidth: 50\n', '        bandwith: 50\n');
    const e = inputError(text);
    expect(e.detail).toBe("unknown key 'bandwith' (did you mean 'bandwidth'?)");
    expect(e.location).toEqual({
      file: FILE,
      line: lineOf(text, 'bandwith'),
      column: 9,
      field: 'packages[0].caches[1].bandwith',
    });
    expect(e.message).toContain(`lab/box.yaml:${lineOf(text, 'bandwith')}:9 (packages[0].caches[1].bandwith)`);
  });

  it('unknown top-level keys list what is known when nothing is close', () => {
    const e = inputError(`${VALID}zzz: 1\n`);
    expect(e.detail).toMatch(/unknown key 'zzz' \(known keys: name, description, packages/);
    expect(e.location.field).toBe('zzz');
  });

  it('wrong types', () => {
    const text = edit('    cores: 4\n', '    cores: four\n');
    const e = inputError(text);
    expect(e.detail).toBe("expected a finite number, got 'four'");
    expect(e.location).toMatchObject({ line: lineOf(text, 'cores: four'), field: 'packages[0].cores' });
    expect(inputError(edit('packages:\n  - count', 'packages: 3\nx:\n  - count')).detail).toMatch(
      /unknown key 'x'|expected a list/,
    );
  });

  it('missing required fields point at the mapping that lacks them', () => {
    const text = edit('  - attach: switch\n    packages: [1, 2]\n', '  - packages: [1, 2]\n');
    const e = inputError(text);
    expect(e.detail).toBe("missing required field 'attach'");
    expect(e.location.field).toBe('numa[1].attach');
    expect(e.location.line).toBe(lineOf(text, 'packages: [1, 2]'));
  });

  it('impossible values: a negative size, a zero bandwidth, an ambiguous unit', () => {
    const neg = edit('size: 32KiB', 'size: -32KiB');
    expect(inputError(neg).detail).toBe('a size must be positive, got -32768');
    expect(inputError(neg).location).toMatchObject({
      line: lineOf(neg, '-32KiB'),
      field: 'packages[0].caches[0].size',
    });
    expect(inputError(edit('reduceBandwidth: 5', 'reduceBandwidth: 0')).location.field).toBe('costs.reduceBandwidth');
    expect(inputError(edit('size: 8MiB', 'size: 8MB')).detail).toMatch(/'MB' is ambiguous; write 8MiB/);
  });

  it('ownership claims in flight: a positive number, read as given; zero refused at its line', () => {
    const claims = (v: string) => edit('  reduceBandwidth: 5\n', `  reduceBandwidth: 5\n  claimConcurrency: ${v}\n`);
    expect(parseMachineYaml(claims('1.9'), FILE).costs.claimConcurrency).toBe(1.9);
    expect(parseMachineYaml(VALID, FILE).costs.claimConcurrency).toBeUndefined();
    const zero = claims('0');
    expect(inputError(zero).location).toMatchObject({
      line: lineOf(zero, 'claimConcurrency'),
      field: 'costs.claimConcurrency',
    });
    expect(inputError(claims('many')).location.field).toBe('costs.claimConcurrency');
  });

  it('write lanes of their own: read with their unit, refused beside a turnaround cost or at zero', () => {
    const lanes = (v: string, extra = '') =>
      edit(
        '    bandwidth: 10\n    latency: 80\n',
        `    bandwidth: 10\n    writeBandwidth: ${v}\n${extra}    latency: 80\n`,
      );
    const spec = parseMachineYaml(lanes('4000MB/s'), FILE);
    expect(spec.numaNodes[0].writeBandwidth).toBe(4);
    expect(spec.numaNodes[1].writeBandwidth).toBeUndefined();
    const both = lanes('5', '    writeCost: 1.3\n');
    expect(inputError(both).location).toMatchObject({
      line: lineOf(both, 'writeBandwidth'),
      field: 'numa[0].writeBandwidth',
    });
    expect(inputError(both).detail).toMatch(/lanes of their own.*drop writeCost/);
    expect(inputError(lanes('0')).location.field).toBe('numa[0].writeBandwidth');
    // A spec built otherwise (a parameter sweep, the visualizer's edits) meets the same rule.
    const built = parseMachineYaml(lanes('5'), FILE);
    const bad = { ...built, numaNodes: built.numaNodes.map((n) => ({ ...n, writeCost: 1.3 })) };
    const e = inputErrorOf(() => validateMachine(bad));
    expect(e.location.field).toBe('numaNodes[0].writeBandwidth');
    expect(e.detail).toMatch(/writeCost \(1\.3\).*give write lanes to a node without writeCost/);
  });

  it('a line between the cores behind a shared cache: read with its unit, refused on a private cache', () => {
    const peer = (level: string, v: string) =>
      edit(`        latency: ${level}\n`, `        latency: ${level}\n        peerLatency: ${v}\n`);
    const spec = parseMachineYaml(peer('15', '42ns'), FILE);
    expect(spec.caches.filter((c) => c.level === 3).map((c) => c.peerLatencyNs)).toEqual([42, 42, 42]);
    expect(spec.caches.filter((c) => c.level !== 3).every((c) => c.peerLatencyNs === undefined)).toBe(true);
    const onL1 = peer('1.5ns', '30');
    expect(inputError(onL1).detail).toMatch(/is private to one core: no other core takes lines from it/);
    expect(inputError(onL1).location).toMatchObject({
      line: lineOf(onL1, 'peerLatency'),
      field: 'packages[0].caches[0].peerLatency',
    });
    expect(inputError(peer('15', '-1')).location.field).toBe('packages[0].caches[2].peerLatency');
  });

  it("a line between a node's cores that share no cache: read with its unit, taken for their trip, refused below 0", () => {
    const peer = (v: string) => edit('    latency: 90\n', `    latency: 90\n    peerLatency: ${v}\n`);
    const spec = parseMachineYaml(peer('0.12us'), FILE);
    expect(spec.numaNodes.map((n) => n.peerLatencyNs)).toEqual([undefined, 120]);
    // With an L3 per pair of cores, cores 4 and 6 of package 1 (node 1) share no cache.
    const split = (text: string) => parseMachineYaml(text.replace('sharedBy: package', 'sharedBy: 2'), FILE);
    const topo = new Topology(split(peer('0.12us')));
    const without = new Topology(split(VALID));
    expect(topo.sharedCache(4, 6)).toBeUndefined();
    expect(topo.lineLatency(4, 6)).toBe(120);
    expect(topo.lineLatency(6, 4)).toBe(120);
    expect(without.lineLatency(4, 6)).toBe(90);
    // Cores sharing a cache keep that cache's trip; cores of two packages (4 and 8, both on node 1)
    // or of two nodes keep memory's latency and the links'.
    for (const [a, b] of [
      [4, 5],
      [4, 8],
      [4, 0],
    ])
      expect(topo.lineLatency(a, b), `${a}-${b}`).toBe(without.lineLatency(a, b));
    expect(without.lineLatency(4, 8)).toBe(90 + without.routeLatency(topo.coreVertex(4), topo.coreVertex(8)));
    const negative = peer('-5');
    expect(inputError(negative).location).toMatchObject({
      line: lineOf(negative, 'peerLatency'),
      field: 'numa[1].peerLatency',
    });
    expect(inputError(peer('fast')).location.field).toBe('numa[1].peerLatency');
  });

  it('a guessed path that reaches no value of the file', () => {
    const typo = edit('guessed: ["numa[0].bandwidth"]', 'guessed: ["numa[0].bandwidth", "numa[1].bandwith"]');
    const e = inputError(typo);
    expect(e.detail).toBe(
      "guessed path 'numa[1].bandwith': the file has no 'bandwith' under numa[1] (did you mean 'bandwidth'?)",
    );
    expect(e.location).toMatchObject({ file: FILE, line: lineOf(typo, 'guessed:'), column: 32, field: 'guessed[1]' });
    expect(inputError(edit('"numa[0].bandwidth"', '"numa[9].bandwidth"')).detail).toBe(
      "guessed path 'numa[9].bandwidth': numa has 2 entries, so no [9]",
    );
    expect(inputError(edit('"numa[0].bandwidth"', '"numaNodes[0]"')).detail).toMatch(
      /^guessed path 'numaNodes\[0\]': the file has no 'numaNodes'; keys there: name, description, packages, .*numa/,
    );
    expect(inputError(edit('"numa[0].bandwidth"', '"costs..copyBandwidth"')).detail).toMatch(/is not a field name/);
    expect(parseMachineYaml(edit('"numa[0].bandwidth"', '"costs.copyBandwidth", "packages[0]"'), FILE).guessed).toEqual(
      ['costs.copyBandwidth', 'packages[0]'],
    );
  });

  it('a cache shared by a core that does not exist', () => {
    const text = edit('    memorySide: true\n', '    cores: [0, 99]\n');
    const e = inputError(text);
    expect(e.detail).toBe('cache side is shared by core 99, which does not exist');
    expect(e.location).toMatchObject({ file: FILE, line: lineOf(text, '[0, 99]'), field: 'caches[0].cores' });
  });

  it('a second memory-side cache, which the model would ignore', () => {
    const second =
      '  - id: side2\n    level: 4\n    size: 1GiB\n    memorySide: true\n    bandwidth: 200\n    latency: 0.1us\n';
    const text = edit('numa:\n', `${second}numa:\n`);
    const e = inputError(text);
    expect(e.detail).toBe(
      'a machine has at most one memory-side cache, and side is one: give one of their summed size',
    );
    expect(e.location.field).toBe('caches[1]');
  });

  it('cache lines and caches the model cannot hold: an odd line, a cache of part of a line, two L1s', () => {
    const line = (v: string) => edit('  reduceBandwidth: 5\n', `  reduceBandwidth: 5\n  lineSize: ${v}\n`);
    for (const v of ['3B', '48B', '4B']) {
      const text = line(v);
      const e = inputError(text);
      expect(e.detail).toMatch(/^cache line size must be a power of two of at least 8 bytes, got \d+$/);
      expect(e.location).toMatchObject({ line: lineOf(text, 'lineSize'), field: 'costs.lineSize' });
    }
    expect(parseMachineYaml(line('128B'), FILE).costs.lineBytes).toBe(128);
    expect(inputError(line('8KiB')).detail).toBe('a cache line of 8192 B is larger than a page (4096 B)');

    const part = edit('size: 32KiB', 'size: 100B');
    const e = inputError(part);
    expect(e.detail).toBe('cache L1#0 holds 100 B, not a whole number of 64 B cache lines (costs.lineSize)');
    expect(e.location).toMatchObject({ line: lineOf(part, '100B'), field: 'packages[0].caches[0].size' });

    const twice = edit(
      '      - level: 2\n',
      '      - level: 1\n        size: 16KiB\n        bandwidth: 9\n        latency: 1\n      - level: 2\n',
    );
    const d = inputError(twice);
    expect(d.detail).toMatch(/^core 0 has two level-1 caches, L1#0 and L1#\d+: a core has one cache per level/);
    expect(d.location.field).toBe('packages[0].caches[1].level');
  });

  it('a cache group that does not divide the package', () => {
    const e = inputError(edit('sharedBy: 2', 'sharedBy: 3'));
    expect(e.detail).toMatch(/shared by 3 cores does not divide a package of 4 cores/);
    expect(e.location.field).toBe('packages[0].caches[1].sharedBy');
  });

  it('a link to an unknown vertex, with a suggestion', () => {
    const text = edit('between: [pkg0, pkg1]', 'between: [pkg0, pkg9]');
    const e = inputError(text);
    expect(e.detail).toMatch(
      /^link 'fast' ends at 'pkg9', which is not a package or hub \(did you mean 'pkg0'\?\); known: pkg0, pkg1, pkg2, switch$/,
    );
    expect(e.location).toMatchObject({ line: lineOf(text, 'pkg9'), field: 'links[0].between' });
  });

  it('a NUMA node attached to nothing that exists', () => {
    const text = edit('attach: switch', 'attach: swtich');
    const e = inputError(text);
    expect(e.detail).toMatch(
      /^NUMA node 1 attaches to 'swtich', which is not a package or hub \(did you mean 'switch'\?\)/,
    );
    expect(e.location).toMatchObject({ line: lineOf(text, 'swtich'), field: 'numa[1].attach' });
  });

  it('a core local to two NUMA nodes, or to none', () => {
    const twice = edit('cores: "0-3"', 'cores: "0-4"');
    expect(inputError(twice).detail).toBe('core 4 is already local to NUMA node 0');
    const none = edit('cores: "0-3"', 'cores: "0-2"');
    expect(inputError(none).detail).toBe('core 3 is local to no NUMA node');
    expect(inputError(none).location.field).toBe('numa');
  });

  it('a disconnected interconnect', () => {
    const text = edit('  - from: switch\n    to: [pkg0]\n', '  - from: switch\n    to: [pkg2]\n')
      .replace('between: [pkg0, pkg1]', 'between: [pkg1, pkg2]')
      .replace('pkg0->pkg2: [pkg0, pkg1, pkg2]', 'pkg1->pkg2: [pkg1, pkg2]')
      .replace('mesh: [pkg1, pkg2, switch]', 'mesh: [pkg1, switch]');
    const e = inputError(text);
    expect(e.detail).toMatch(/the interconnect is disconnected: .*cannot be reached from pkg0/);
    expect(e.location).toMatchObject({ file: FILE, line: lineOf(text, 'links:') + 1, field: 'links' });
  });

  it('a machine of several packages with no links at all: the missing key is named', () => {
    const dancer = readFileSync(join(import.meta.dirname, '../../hardware/presets/dancer.yaml'), 'utf8');
    const text = dancer.replace(/^links:\n(?:[ #].*\n|\n)*/m, '');
    expect(text).not.toMatch(/^links:/m);
    const e = inputError(text);
    expect(e.detail).toBe('the interconnect is disconnected: pkg1 cannot be reached from pkg0');
    expect(e.location).toMatchObject({ file: FILE, line: lineOf(text, 'name: dancer'), column: 1, field: 'links' });
  });

  it('too many cores: the larger of count and cores is pointed at', () => {
    const text = edit('  - count: 3\n', '  - count: 100000\n');
    const e = inputError(text);
    expect(e.detail).toBe('100000 packages of 4 cores: more than 65536 cores in the machine');
    expect(e.location).toMatchObject({ line: lineOf(text, 'count: 100000'), field: 'packages[0].count' });
  });

  it('a route that hops without a link', () => {
    const text = edit('pkg0->pkg2: [pkg0, pkg1, pkg2]', 'pkg0->pkg2: [pkg0, pkg2]');
    const e = inputError(text);
    expect(e.detail).toBe("route pkg0->pkg2 hops from 'pkg0' to 'pkg2' without a link between them");
    expect(e.location).toMatchObject({ line: lineOf(text, '[pkg0, pkg2]'), field: 'routing.table.pkg0->pkg2' });
  });

  it('an unquoted kernel version and an unknown mechanism', () => {
    expect(inputError(edit('version: "4.10"', 'version: 4.10')).detail).toMatch(/quote the kernel version/);
    const text = edit('mechanisms: [cma, knem]', 'mechanisms: [cma, kmem]');
    const e = inputError(text);
    expect(e.detail).toMatch(/'kmem' is not one of cma, knem, xpmem, limic, ioat \(did you mean 'knem'\?\)/);
    expect(e.location).toMatchObject({ line: lineOf(text, 'kmem'), field: 'kernel.mechanisms[1]' });
  });

  it('a distance matrix of the wrong shape', () => {
    const e = inputError(edit('  - [20, 10]\n', '  - [20, 10]\n  - [30, 30]\n'));
    expect(e.detail).toBe('the distance matrix has 3 rows for 2 NUMA nodes');
    expect(e.location.field).toBe('distances');
  });

  it('an empty file and a missing file', () => {
    expect(inputError('').detail).toBe('the machine file is empty');
    expect(() => loadMachineFile('/nonexistent/machine.yaml')).toThrow(
      /\/nonexistent\/machine\.yaml: cannot read machine file: no such file/,
    );
  });
});

describe('resolveMachine', () => {
  it('resolves preset names and machine files relative to a base folder', () => {
    expect(resolveMachine('dancer').name).toBe('dancer');
    const dir = mkdtempSync(join(tmpdir(), 'machine-'));
    writeFileSync(join(dir, 'box.yaml'), VALID);
    expect(resolveMachine('box.yaml', { baseDir: dir }).cores).toHaveLength(12);
    expect(resolveMachine(join(dir, 'box.yaml')).name).toBe('box');
  });

  it('refuses unknown references with a suggestion among the presets', () => {
    expect(() => resolveMachine('dancr')).toThrow(InputError);
    expect(() => resolveMachine('dancr')).toThrow(/unknown machine 'dancr': did you mean 'dancer'\?/);
    expect(() => resolveMachine('/no/such/file.yml')).toThrow(/no such file/);
  });

  it('says so when a folder is given for a machine, whatever its name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'machine-'));
    for (const name of ['m.xml', 'm.yaml']) mkdirSync(join(dir, name));
    expect(() => resolveMachine(join(dir, 'm.xml'))).toThrow(
      `${join(dir, 'm.xml')}: cannot read hwloc XML file: it is a folder, not a file`,
    );
    expect(() => resolveMachine(join(dir, 'm.yaml'))).toThrow('cannot read machine file: it is a folder, not a file');
    expect(() => resolveMachine(dir)).toThrow(
      `${dir}: a folder, not a machine: give a machine file (.yaml/.yml) or an hwloc XML file (.xml)`,
    );
  });
});

// Random damage to a valid file must end in a loaded machine or an InputError, never in a crash.
describe('machine file robustness', () => {
  const lines = VALID.split('\n');
  const replacement = fc.oneof(
    fc.constantFrom(
      '-1',
      '0',
      '1e308',
      'NaN',
      '.inf',
      'null',
      '~',
      '[]',
      '{}',
      '"x"',
      'pkg7',
      '3MB',
      '0-999999',
      'all',
      '*a',
      '&a 1',
      ': :',
      '- -',
    ),
    fc.integer({ min: -5, max: 200 }).map(String),
    fc.string({ maxLength: 8 }),
  );
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), line: fc.nat(lines.length - 1) }),
    fc.record({ kind: fc.constant('duplicate' as const), line: fc.nat(lines.length - 1) }),
    fc.record({ kind: fc.constant('value' as const), line: fc.nat(lines.length - 1), text: replacement }),
    fc.record({
      kind: fc.constant('indent' as const),
      line: fc.nat(lines.length - 1),
      by: fc.integer({ min: -4, max: 4 }),
    }),
    fc.record({
      kind: fc.constant('key' as const),
      line: fc.nat(lines.length - 1),
      text: fc.string({ minLength: 1, maxLength: 4 }),
    }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(VALID.length) }),
  );

  function apply(text: string, m: Mutation): string {
    const ls = text.split('\n');
    const i = 'line' in m ? Math.min(m.line, ls.length - 1) : 0;
    switch (m.kind) {
      case 'delete':
        ls.splice(i, 1);
        break;
      case 'duplicate':
        ls.splice(i, 0, ls[i]);
        break;
      case 'value':
        ls[i] = ls[i].includes(':') ? `${ls[i].slice(0, ls[i].indexOf(':') + 1)} ${m.text}` : `${ls[i]} ${m.text}`;
        break;
      case 'indent':
        ls[i] =
          m.by >= 0 ? ' '.repeat(m.by) + ls[i] : ls[i].slice(Math.min(-m.by, ls[i].length - ls[i].trimStart().length));
        break;
      case 'key':
        ls[i] = ls[i].replace(/([A-Za-z]+):/, `$1${m.text}:`);
        break;
      case 'truncate':
        return text.slice(0, m.at);
    }
    return ls.join('\n');
  }

  it('either loads or throws InputError', () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        const text = mutations.reduce<string>((t, m) => apply(t, m), VALID);
        try {
          const spec = parseMachineYaml(text, FILE);
          validateMachine(spec);
        } catch (e) {
          if (!(e instanceof InputError)) throw e;
          expect(e.location.file).toBe(FILE);
        }
      }),
      { numRuns: 400, seed: 20240601 },
    );
  });
});

type Mutation =
  | { kind: 'delete' | 'duplicate'; line: number }
  | { kind: 'value'; line: number; text: string }
  | { kind: 'indent'; line: number; by: number }
  | { kind: 'key'; line: number; text: string }
  | { kind: 'truncate'; at: number };
