import { describe, expect, it } from 'vitest';
import { clusterOf, hostStride } from '../../hardware/cluster.ts';
import { NIC_MODELS } from '../../hardware/nic-models.ts';
import { loadPreset } from '../../hardware/presets.ts';
import { Topology } from '../../sim/node/topology.ts';

const nuioa = loadPreset('opteron-nuioa');

describe('NICs in machine files', () => {
  it("read a NIC's latency to its peer", () => {
    expect(nuioa.nics.map((n) => n.latencyNs)).toEqual([1200, 1200]);
  });
});

describe('several hosts of one machine', () => {
  const two = clusterOf(nuioa, { hosts: 2 });

  it('repeats every part, host 0 under its own names and host h shifted by h strides', () => {
    const stride = hostStride(nuioa);
    expect(stride).toEqual({ core: 8, package: 4, numa: 4 });
    expect(two.hosts).toBe(2);
    expect(two.cores).toHaveLength(16);
    expect(two.cores.slice(0, 8)).toEqual(nuioa.cores.map((c) => ({ ...c, host: 0 })));
    expect(two.cores[10]).toMatchObject({ id: 10, package: 5, numa: 5, host: 1 });
    expect(two.numaNodes[5]).toMatchObject({ id: 5, attach: 'pkg5' });
    expect(two.caches.map((c) => c.id)).toContain(`h1.${nuioa.caches[0].id}`);
    expect(two.links.map((l) => l.name)).toContain('h1.HT pkg0-pkg1');
    expect(two.nics.map((n) => [n.id, n.bus, n.host])).toEqual([
      ['ib0', 'io0', 0],
      ['ib1', 'io1', 0],
      ['h1.ib0', 'h1.io0', 1],
      ['h1.ib1', 'h1.io1', 1],
    ]);
    expect(two.ioBuses.map((b) => b.attach)).toEqual(['pkg0', 'pkg1', 'pkg4', 'pkg5']);
  });

  it("keeps each host's routing table, and no route leads from one host to another", () => {
    const topo = new Topology(two);
    expect(topo.route('pkg4', 'pkg7').map((h) => h.to)).toEqual(['pkg5', 'pkg7']);
    expect(topo.route('pkg7', 'pkg4').map((h) => h.to)).toEqual(['pkg6', 'pkg4']);
    expect(() => topo.route('pkg0', 'pkg4')).toThrow(/no route/);
  });

  it('plugs NIC models into the slots and adds the wire to every NIC latency', () => {
    const m = clusterOf(nuioa, { hosts: 2, nics: { ib1: 'myri-10g' }, wireLatencyNs: 100 });
    expect(m.nics[1]).toMatchObject({ ...NIC_MODELS['myri-10g'], latencyNs: 2400, id: 'ib1', bus: 'io1', host: 0 });
    expect(m.nics[0].latencyNs).toBe(1300);
    expect(m.nics[3]).toMatchObject({ model: NIC_MODELS['myri-10g'].model, id: 'h1.ib1' });
  });

  it('refuses what it cannot build', () => {
    expect(() => clusterOf(nuioa, { hosts: 0 })).toThrow(/hosts must be/);
    expect(() => clusterOf(nuioa, { hosts: 2, nics: { ib7: 'myri-10g' } })).toThrow(/no NIC 'ib7'/);
    expect(() => clusterOf(nuioa, { hosts: 2, nics: { ib0: 'myri' } })).toThrow(/unknown NIC model 'myri'/);
    expect(() => clusterOf(clusterOf(nuioa, { hosts: 2 }), { hosts: 2 })).toThrow(/already has several hosts/);
    expect(() => clusterOf(loadPreset('knl'), { hosts: 2 })).toThrow(/memory-side cache/);
  });
});
