import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../common/input-error.ts';
import { packageVertex } from '../../hardware/spec.ts';
import { detectHost } from '../../hardware/sysfs.ts';
import { validateMachine } from '../../hardware/validate.ts';

const base = fileURLToPath(new URL('../fixtures/sysfs/two-socket/', import.meta.url));
const options = { cpuinfo: join(base, 'proc/cpuinfo'), osrelease: join(base, 'proc/osrelease'), name: 'fixture' };
const detect = (root = join(base, 'sys')) => detectHost(root, options);

describe('detectHost on a fake sysfs tree', () => {
  const m = detect();

  it('groups hardware threads into cores and packages, skipping an offline CPU', () => {
    validateMachine(m);
    expect(m.name).toBe('fixture');
    expect(m.packages).toEqual([
      { id: 0, model: 'Intel(R) Xeon(R) CPU E5-2670 0 @ 2.60GHz' },
      { id: 1, model: 'Intel(R) Xeon(R) CPU E5-2670 0 @ 2.60GHz' },
    ]);
    // cpu7 (sibling of cpu3) is offline: core 3 has one thread left.
    expect(m.cores.map((c) => [c.id, c.package, c.numa, c.threads])).toEqual([
      [0, 0, 0, 2],
      [1, 0, 0, 2],
      [2, 1, 1, 2],
      [3, 1, 1, 1],
    ]);
  });

  it('takes the clock from cpufreq, else from the model name', () => {
    expect(m.cores.map((c) => c.frequencyGHz)).toEqual([2.6, 2.6, 3, 2.6]);
    expect(m.guessed.some((g) => g.includes('frequencyGHz'))).toBe(false);
  });

  it('reads data and unified caches with their sharers, not instruction caches', () => {
    expect(m.caches.map((c) => `${c.level}:${c.sizeBytes}:${c.cores.join(',')}`)).toEqual([
      '1:32768:0',
      '1:32768:1',
      '1:32768:2',
      '1:32768:3',
      '2:262144:0',
      '2:262144:1',
      '2:262144:2',
      '2:262144:3',
      '3:20971520:0,1',
      '3:20971520:2,3',
    ]);
  });

  it('reads NUMA memory and distances, and links the packages', () => {
    expect(m.numaNodes.map((n) => [n.id, n.attach, n.memoryBytes])).toEqual([
      [0, 'pkg0', 16 * 2 ** 30],
      [1, 'pkg1', 8 * 2 ** 30],
    ]);
    expect(m.distances).toEqual([
      [10, 21],
      [21, 10],
    ]);
    expect(m.links.map((l) => [l.a, l.b])).toEqual([['pkg0', 'pkg1']]);
    // The E5-2670 is in the processor table, so its memory figures are not guessed.
    expect(m.processor).toMatch(/Sandy Bridge-EP/);
    expect(m.guessed).not.toContain('numaNodes[0].bandwidth');
    expect(m.guessed).not.toContain('numaNodes[0].memoryBytes');
  });

  it('places the InfiniBand adapter on a bus local to its NUMA node, at its port rate', () => {
    const nic = m.nics.find((n) => n.id === 'mlx5_0')!;
    expect(nic.model).toBe('InfiniBand adapter MT4119 [15b3:1017]');
    expect(m.ioBuses.find((b) => b.id === nic.bus)!.attach).toBe(packageVertex(1));
    // The EDR port's 100 Gb/s (12.5 GB/s), under its PCIe 3.0 x16 link (15.75 GB/s): stated, so sourced.
    expect(nic.bandwidth).toBe(12.5);
    expect(m.guessed).not.toContain(`nics[${m.nics.indexOf(nic)}].bandwidth`);
  });

  it('takes an Ethernet port with a device of its own at its speed, and no loopback', () => {
    expect(m.nics.map((n) => n.id)).toEqual(['mlx5_0', 'eth0']);
    const eth = m.nics[1];
    expect(eth.model).toBe('Ethernet adapter eth0 [8086:1572]');
    expect(m.ioBuses.find((b) => b.id === eth.bus)!.attach).toBe(packageVertex(0));
    expect(eth.bandwidth).toBe(10000 / 8000);
    expect(m.guessed).not.toContain('nics[1].bandwidth');
  });

  it('detects KNEM from class/misc and CMA from the kernel release', () => {
    expect(m.kernel.version).toBe('4.15.0-generic');
    expect(m.kernel.mechanisms).toEqual({ cma: true, knem: true, xpmem: false, limic: false, ioat: false });
    expect(m.guessed).not.toContain('kernel.mechanisms.knem');
    expect(m.guessed).toContain('kernel.mechanisms.limic');
  });

  it('gives identical output on identical input', () => {
    expect(detect()).toEqual(m);
  });
});

describe('detectHost errors', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'sysfs-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('names a root without devices/system/cpu', () => {
    expect(() => detectHost(join(scratch, 'nothing'), options)).toThrow(InputError);
    expect(() => detectHost(join(scratch, 'nothing'), options)).toThrow(/not a Linux sysfs tree/);
  });

  it('names the malformed file', () => {
    const root = join(scratch, 'bad');
    cpSync(join(base, 'sys'), root, { recursive: true });
    writeFileSync(join(root, 'devices/system/node/node0/distance'), '10 far\n');
    expect(() => detectHost(root, options)).toThrow(/node0\/distance:1: "10 far" is not a list of integers/);
    writeFileSync(join(root, 'devices/system/node/node0/distance'), '10 21\n');
    writeFileSync(join(root, 'devices/system/cpu/cpu1/cache/index2/size'), 'big\n');
    expect(() => detectHost(root, options)).toThrow(/index2\/size:1: "big" is not a cache size/);
  });

  it('takes a node without memory (MemTotal 0) for one whose size is unknown: guessed, listed', () => {
    const root = join(scratch, 'memoryless');
    cpSync(join(base, 'sys'), root, { recursive: true });
    writeFileSync(join(root, 'devices/system/node/node1/meminfo'), 'Node 1 MemTotal:       0 kB\n');
    const m = detectHost(root, options);
    expect(m.numaNodes[1].memoryBytes).toBeGreaterThan(0);
    expect(m.guessed).toContain('numaNodes[1].memoryBytes');
  });

  it('gives a machine without node directories one NUMA node', () => {
    const root = join(scratch, 'flat');
    cpSync(join(base, 'sys'), root, { recursive: true });
    rmSync(join(root, 'devices/system/node'), { recursive: true });
    const m = detectHost(root, options);
    validateMachine(m);
    expect(m.numaNodes).toHaveLength(1);
    expect(m.guessed).toContain('numaNodes[0]');
    expect(m.cores.every((c) => c.numa === 0)).toBe(true);
  });
});

describe.skipIf(!existsSync('/sys/devices/system/cpu'))(
  'detectHost on this machine (skipped: no /sys/devices/system/cpu)',
  () => {
    it('reads the real /sys without error into a usable machine', () => {
      const m = detectHost();
      validateMachine(m);
      expect(m.cores.length).toBeGreaterThan(0);
      expect(m.numaNodes.length).toBeGreaterThan(0);
      for (const c of m.cores) expect(m.numaNodes.some((n) => n.id === c.numa)).toBe(true);
      expect(m.origin).toBe('sysfs /sys');
    });
  },
);
