import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../hardware/presets.ts';
import { ranges, renderMachine } from '../../hardware/render.ts';

describe('renderMachine', () => {
  it('draws zoot as a tree: packages, L2 pairs, cores, then memory behind the hub and the FSB links', () => {
    const text = renderMachine(loadPreset('zoot'));
    const lines = text.split('\n');
    const pkg0 = lines.indexOf('  Package 0 (pkg0): Intel Xeon E7340 (Tigerton)');
    expect(pkg0).toBeGreaterThan(0);
    expect(lines.slice(pkg0 + 1, pkg0 + 7)).toEqual([
      '    L2#0 4 MiB, cores 0-1',
      '      Core 0: 2.4 GHz, NUMA 0, private L1 32 KiB',
      '      Core 1: 2.4 GHz, NUMA 0, private L1 32 KiB',
      '    L2#1 4 MiB, cores 2-3',
      '      Core 2: 2.4 GHz, NUMA 0, private L1 32 KiB',
      '      Core 3: 2.4 GHz, NUMA 0, private L1 32 KiB',
    ]);
    expect(text).toContain('  L2 4 MiB x8, shared by 2 cores, 76.8 GB/s, 5.8 ns');
    expect(text).toContain('  NUMA 0: 32 GiB dram, 10.7 GB/s, 90 ns, attached to northbridge, local cores 0-15');
    expect(text).toContain('  northbridge: Intel 7300');
    expect(text).toContain('  FSB northbridge-pkg3: northbridge <-> pkg3, 8.53 GB/s, 20 ns');
    expect(text).toContain('Kernel 2.6.32: mechanisms ioat, knem (not: cma, limic, xpmem)');
    expect(text).not.toContain('guessed:');
  });

  it('nests cores under the caches they share (Genoa L3 per CCD, KNL L2 per tile)', () => {
    const genoa = renderMachine(loadPreset('epyc-genoa')).split('\n');
    const ccd = genoa.indexOf('    L3#1 32 MiB, cores 8-15');
    expect(ccd).toBeGreaterThan(0);
    expect(genoa[ccd + 1]).toBe('      Core 8: 2.4 GHz, 2 threads, NUMA 0, private L1 32 KiB + L2 1 MiB');
    const knl = renderMachine(loadPreset('knl'));
    expect(knl).toContain('  L3 16 GiB x1, memory-side, every core, 330 GB/s, 165 ns');
    expect(knl).toContain('    L2#33 1 MiB, cores 66-67');
  });

  it('shows I/O buses with their NICs and an explicit routing table', () => {
    const text = renderMachine(loadPreset('opteron-nuioa'));
    expect(text).toContain(
      '  io1 on pkg1, 2 GB/s per direction\n    NIC ib1: Mellanox MT25418 ConnectX DDR InfiniBand, 2 GB/s, DMA 128 B',
    );
    expect(text).toContain('    pkg0->pkg3: pkg0 > pkg1 > pkg3');
  });

  it('lists guessed fields, kernel parameters and distances when present', () => {
    const spec = loadPreset('dancer');
    spec.guessed = [
      'numaNodes[0].bandwidth',
      'kernel.syscallNs',
      'numaNodes[1].bandwidth',
      'numaNodes[1].latencyNs',
      'caches[3].bandwidth',
    ];
    spec.kernel.params = { knemCreateNs: 750 };
    spec.distances = [
      [10, 21],
      [21, 10],
    ];
    const text = renderMachine(spec);
    // Indexed paths fold into one line per collection, in first-seen order.
    expect(text).toContain(
      'guessed (documented defaults, not from the source):\n  numaNodes[0-1]: bandwidth, latencyNs\n  kernel.syscallNs\n  caches[3]: bandwidth\n',
    );
    expect(text).toContain('  params: knemCreateNs=750');
    expect(text).toContain('NUMA distances\n    10  21\n    21  10');
  });

  it('is deterministic', () => {
    for (const name of ['ig', 'dunnington', 'power8']) {
      expect(renderMachine(loadPreset(name))).toBe(renderMachine(loadPreset(name)));
    }
  });

  it('writes core sets as ranges', () => {
    expect(ranges([3, 0, 1, 2, 8, 10, 11])).toBe('0-3,8,10-11');
    expect(ranges([5])).toBe('5');
  });
});
