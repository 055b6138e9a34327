// The native backend builds with this machine's compiler, runs every benchmark on two ranks, checks
// the data each rank received (a rank fails the run on a wrong byte), and prints well-formed JSON.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { orphanSegments } from './leftovers.ts';
import { CHANGE_FACTOR, samePlacement } from '../../native-validate/host-check.ts';
import {
  BINARY,
  BUILD_SCRIPT,
  probeNative,
  runNative,
  type NativeBench,
  type NativeMech,
} from '../../native-validate/backend.ts';

const SIZES = [0, 1, 4096, 200_000];
const cma = probeNative([0, 1]).cma === 'ok';
/** The cache the cold runs' rotation exceeds twice: these tests check data and output, not
 *  coldness, and the host's own last-level cache (or the backend's 32 MiB default) would have every
 *  rank allocate and fill 64 MiB or more for every size. */
const LLC = 1 << 20;

function expectWellFormed(bench: NativeBench, mech: NativeMech, sizes = SIZES) {
  const run = runNative({ bench, mech, cores: [0, 1], sizes, iterations: 3, warmup: 1, cache: 'off', llcBytes: LLC });
  expect(run.bench).toBe(bench);
  expect(run.ranks).toBe(2);
  expect(run.results.map((r) => r.bytes)).toEqual(sizes);
  for (const r of run.results) {
    expect(r.samples).toBe(3);
    expect(r.minNs).toBeGreaterThan(0);
    expect(r.minNs).toBeLessThanOrEqual(r.medianNs);
    expect(r.medianNs).toBeLessThanOrEqual(r.maxNs);
  }
}

describe('native benchmarks on two ranks', () => {
  for (const bench of ['pingpong', 'pingping', 'onetoall'] as const) {
    it(`${bench} over the double copy`, () => expectWellFormed(bench, 'shm'));
    it.runIf(cma)(`${bench} over CMA reads`, () => expectWellFormed(bench, 'cma-read'));
  }
  for (const bench of ['pingpong', 'pingping'] as const)
    it.runIf(cma)(`${bench} over CMA writes`, () => expectWellFormed(bench, 'cma-write'));
  for (const bench of ['bcast', 'scatter', 'gather', 'alltoall', 'allgather'] as const) {
    it(`${bench} over the double copy`, () => expectWellFormed(bench, 'shm'));
    it.runIf(cma)(`${bench} over CMA`, () => expectWellFormed(bench, 'cma'));
  }
  it('takes cold buffers in a shuffled order on request, checking the data as in order', () => {
    // The data check would fail were the fill and the timed rotation to disagree on a buffer. The
    // buffers each case's first iterations took show the order itself: distinct, not one after
    // another, and the same fixed shuffle in every run.
    const shuffled = (bench: 'bcast' | 'scatter' | 'alltoall') =>
      runNative({
        bench,
        mech: 'shm',
        cores: [0, 1],
        sizes: [64, 4096],
        iterations: 5,
        warmup: 1,
        cache: 'off',
        llcBytes: LLC,
        order: 'shuffled',
      });
    const inOrder = [0, 1, 2, 3, 4, 5];
    for (const bench of ['bcast', 'scatter', 'alltoall'] as const) {
      const run = shuffled(bench);
      expect(run.order).toBe('shuffled');
      expect(run.results).toHaveLength(2);
      for (const r of run.results) {
        expect(r.buffers).toHaveLength(6);
        expect(new Set(r.buffers).size).toBe(6);
        expect(r.buffers).not.toEqual(inOrder);
      }
      if (bench === 'bcast')
        expect(shuffled(bench).results.map((r) => r.buffers)).toEqual(run.results.map((r) => r.buffers));
    }
    const sequential = runNative({
      bench: 'bcast',
      mech: 'shm',
      cores: [0, 1],
      sizes: [64],
      iterations: 5,
      warmup: 1,
      cache: 'off',
      llcBytes: LLC,
    });
    expect(sequential.order).toBe('sequential');
    expect(sequential.results[0].buffers).toEqual(inOrder);
    const bad = spawnSync(BINARY, ['bcast', '--order', 'random'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--order takes sequential or shuffled');
  });

  it('memcpy and latency by working set', () => {
    const copy = runNative({ bench: 'memcpy', cores: [0], sizes: [4096, 1 << 20], iterations: 3, warmup: 1 });
    expect(copy.results).toHaveLength(2);
    const chase = runNative({ bench: 'latency', cores: [0], sizes: [16384, 1 << 22], iterations: 3, warmup: 1 });
    expect(chase.results.every((r) => r.medianNs > 0)).toBe(true);
  });
  it('a cache line passed between two cores, per one-way trip', () => {
    const run = runNative({ bench: 'lineping', cores: [0, 1], sizes: [64], iterations: 3, warmup: 1 });
    expect(run.results).toHaveLength(1);
    // How long the trip takes is the host's, and a noisy host can stretch it: the figure is what
    // calibration reads, so only its form is checked here.
    const [r] = run.results;
    expect(r.bytes).toBe(64);
    expect(r.samples).toBe(3);
    expect(r.minNs).toBeGreaterThan(0);
    expect(r.minNs).toBeLessThanOrEqual(r.medianNs);
    expect(r.medianNs).toBeLessThanOrEqual(r.maxNs);
  });
  it('every case of two ranks or more says what a line trip took right before and after it; one rank, none', () => {
    const two = runNative({ bench: 'bcast', mech: 'shm', cores: [0, 1], sizes: [64, 4096], iterations: 2, warmup: 1 });
    for (const r of two.results) {
      expect(r.tripBeforeNs).toBeGreaterThan(0);
      expect(r.tripNs).toBeGreaterThan(0);
    }
    // Its own ping-pong line apart from the benchmark's: the line trip benchmark still passes its
    // line as many times as it counts (its every iteration waits for the other rank's values).
    // Nine iterations: their median, like the trip's median of five blocks, stands against a moment
    // of interference on a shared host (two iterations once gave a 1.56 ratio with nothing miscounted).
    const trip = runNative({ bench: 'lineping', cores: [0, 1], sizes: [64], iterations: 9, warmup: 1 });
    const [r] = trip.results;
    expect(r.tripNs).toBeGreaterThan(0);
    // The benchmark's own trip and the one after it measure the same thing a moment apart: were the
    // shared ping loop to pass the line fewer times than it counts, the two would part.
    if (samePlacement(r.tripBeforeNs!)({ ...r, tripBeforeNs: undefined }))
      expect(Math.max(r.medianNs, r.tripNs!) / Math.min(r.medianNs, r.tripNs!)).toBeLessThanOrEqual(CHANGE_FACTOR);
    const one = runNative({ bench: 'memcpy', cores: [0], sizes: [4096], iterations: 2, warmup: 1 });
    expect(one.results[0].tripNs).toBeUndefined();
    expect(one.results[0].tripBeforeNs).toBeUndefined();
  });
  it('stores into the ring another core has just read: timed, checked, and refused beyond the ring', () => {
    const run = runNative({ bench: 'claims', cores: [0, 1], sizes: [4096, 65536], iterations: 3, warmup: 1 });
    expect(run.results.map((r) => r.bytes)).toEqual([4096, 65536]);
    expect(run.results.every((r) => r.medianNs > 0)).toBe(true);
    const corrupt = spawnSync(BINARY, ['claims', '--ranks', '2', '--sizes', '4096', '--test-corrupt', '1'], {
      encoding: 'utf8',
    });
    expect(corrupt.status).toBe(2);
    expect(corrupt.stderr).toContain('claims: 4096 bytes of block 0 from rank 0');
    const cold = spawnSync(BINARY, ['claims', '--ranks', '2', '--sizes', '4096', '--cache', 'off'], {
      encoding: 'utf8',
    });
    expect(cold.status).toBe(1);
    expect(cold.stderr).toContain('claims runs warm only');
    const big = spawnSync(BINARY, ['claims', '--ranks', '2', '--sizes', String(1 << 20)], { encoding: 'utf8' });
    expect(big.status).toBe(1);
    expect(big.stderr).toContain('a size exceeds the ring');
  });
  it.runIf(cma)(
    'one-to-all over CMA reads with its root polling or in system calls: checked, and refused otherwise',
    () => {
      for (const rootWaits of ['polling', 'syscalls'] as const) {
        const run = runNative({
          bench: 'onetoall',
          mech: 'cma-read',
          cores: [0, 1],
          sizes: [64, 4096],
          iterations: 3,
          warmup: 1,
          rootWaits,
        });
        expect(run.rootWaits).toBe(rootWaits);
        expect(run.results.map((r) => r.bytes)).toEqual([64, 4096]);
        expect(run.results.every((r) => r.medianNs > 0)).toBe(true);
      }
      expect(
        runNative({ bench: 'onetoall', mech: 'cma-read', cores: [0, 1], sizes: [64], iterations: 1 }).rootWaits,
      ).toBe(null);
      for (const argv of [
        ['onetoall', '--ranks', '2', '--sizes', '64', '--root-waits', 'syscalls'],
        ['onetoall', '--ranks', '2', '--sizes', '64', '--mech', 'cma-write', '--root-waits', 'polling'],
        ['pingpong', '--ranks', '2', '--sizes', '64', '--mech', 'cma-read', '--root-waits', 'syscalls'],
      ]) {
        const refused = spawnSync(BINARY, argv, { encoding: 'utf8' });
        expect(refused.status).toBe(1);
        expect(refused.stderr).toContain('--root-waits is for onetoall over CMA reads only');
      }
      const unknown = spawnSync(BINARY, ['onetoall', '--sizes', '64', '--root-waits', 'sleeping'], {
        encoding: 'utf8',
      });
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toContain('--root-waits takes polling or syscalls');
    },
  );

  it('rotates cold buffers over twice the cache size it is given, and the probe says where its size came from', () => {
    // A broadcast's rotation buffer holds a page to send and a page to receive; a "cache" of two
    // pages makes the rotation the fewest such buffers that exceed twice it, three.
    const page = 4096;
    const run = runNative({
      bench: 'bcast',
      mech: 'shm',
      cores: [0, 1],
      sizes: [page],
      iterations: 5,
      warmup: 1,
      cache: 'off',
      llcBytes: 2 * page,
    });
    expect(run.results[0].buffers).toEqual([0, 1, 2, 0, 1, 2]);
    const probe = probeNative([0, 1]);
    expect(probe.llcBytes).toBeGreaterThan(0);
    const sysfsListsCaches = existsSync('/sys/devices/system/cpu/cpu0/cache/index0/size');
    expect(probe.llcSource).toBe(sysfsListsCaches ? 'sysfs' : 'default');
    if (!sysfsListsCaches) expect(probe.llcBytes).toBe(32 << 20);
    const zero = spawnSync(BINARY, ['bcast', '--ranks', '2', '--sizes', '64', '--cache', 'off', '--llc', '0'], {
      encoding: 'utf8',
    });
    expect(zero.status).toBe(1);
    expect(zero.stderr).toContain('--llc: the cache-off rotation needs a cache size above 0');
  });
  it('the probe says whether CMA works: a CMA read runs exactly when it says ok', () => {
    const probed = probeNative([0, 1]).cma;
    const args = ['pingpong', '--ranks', '2', '--mech', 'cma-read', '--sizes', '4096', '--iterations', '1'];
    const out = spawnSync(BINARY, args, { encoding: 'utf8' });
    if (probed === 'ok') expect(out.status, out.stderr).toBe(0);
    else {
      expect(out.status).toBe(2);
      expect(out.stderr).toMatch(/process_vm_readv from rank 0/);
    }
  });
  it('leaves no segment in /dev/shm', () => {
    expect(orphanSegments()).toEqual([]);
  });
  it('fails the run, naming the block, when a received byte is wrong', () => {
    const out = spawnSync(
      BINARY,
      ['pingpong', '--ranks', '2', '--sizes', '4096', '--iterations', '1', '--test-corrupt', '1'],
      {
        encoding: 'utf8',
      },
    );
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/rank 1: point-to-point: 4096 bytes of block 0 from rank 0 .* are not what rank 0 sent/);
    expect(out.stdout).toBe('');
  });
});

describe('build', () => {
  it('says clearly that there is no C compiler, and exits non-zero', () => {
    const out = spawnSync('sh', [BUILD_SCRIPT], {
      encoding: 'utf8',
      env: { ...process.env, CC: join('/nonexistent', 'cc') },
    });
    expect(out.status).toBe(3);
    expect(out.stderr).toMatch(/no C compiler/);
  });
});

// A kernel that refuses CMA: ranks made non-dumpable, run without CAP_SYS_PTRACE, get EPERM from
// process_vm_readv exactly as under a ptrace restriction.
const setpriv = spawnSync('sh', ['-c', 'command -v setpriv']).status === 0;
const refused = { ...process.env, INTRANODE_NATIVE_TEST_NODUMP: '1' };
const withoutPtrace = ['--inh-caps=-sys_ptrace', '--bounding-set=-sys_ptrace', '--'];

describe.runIf(setpriv && cma)('CMA refused by the kernel', () => {
  it('the probe reports EPERM', () => {
    const out = spawnSync('setpriv', [...withoutPtrace, BINARY, 'probe', '--ranks', '2'], {
      encoding: 'utf8',
      env: refused,
    });
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ cma: 'EPERM' });
  });
  it('a CMA benchmark fails naming the call and the error, and cleans up', () => {
    const args = ['pingpong', '--ranks', '2', '--mech', 'cma-read', '--sizes', '4096'];
    const out = spawnSync('setpriv', [...withoutPtrace, BINARY, ...args], { encoding: 'utf8', env: refused });
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/process_vm_readv from rank 0: Operation not permitted/);
    expect(orphanSegments()).toEqual([]);
  });
  it('validate reports the refusal and still runs the shared-memory cases', () => {
    const launcher = join(import.meta.dirname, '../../bin/intranode.mjs');
    const args = [
      'validate',
      '--machine',
      'host',
      '--ranks',
      '2',
      '--sizes',
      '4KiB',
      '--iterations',
      '1',
      '--rounds',
      '1',
      '--json',
    ];
    const out = spawnSync('setpriv', [...withoutPtrace, process.execPath, launcher, ...args], {
      encoding: 'utf8',
      env: refused,
    });
    expect(out.status).toBe(0);
    const report = JSON.parse(out.stdout) as { notes: string[]; rows: { mechanism: string }[] };
    expect(report.notes.join('\n')).toMatch(/CMA refused by the kernel \(EPERM/);
    expect(report.rows.length).toBeGreaterThan(0);
    expect(report.rows.every((r) => r.mechanism === 'shm')).toBe(true);
  }, 120_000);
});
