// Point-to-point between hosts: NIC DMA paths, rail splitting, and the data every rank ends with.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { clusterOf } from '../../hardware/cluster.ts';
import { loadPreset } from '../../hardware/presets.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { Simulation } from '../../sim/engine/simulation.ts';
import { NicDma } from '../../sim/node/nic-dma.ts';
import { nicCosts } from '../../sim/node/nic-costs.ts';
import { Node } from '../../sim/node/node.ts';
import { netCosts } from '../../sim/kernel/net/net-costs.ts';
import { railWeights, splitAcrossRails } from '../../sim/kernel/net/rails.ts';
import { propRuns } from '../helpers/prop-runs.ts';
import { runPrograms } from '../helpers/run-programs.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { World } from '../../sim/node/world.ts';
import { SimRank } from '../../sim/kernel/rank.ts';

const nuioa = loadPreset('opteron-nuioa');
const twoHosts = clusterOf(nuioa, { hosts: 2 });
const MiB = 1024 * 1024;

/** Half a ping-pong's round trip (ns) between core `core` of host 0 and the same core of host 1. */
function pingPong(machine: MachineSpec, core: number, bytes: number, params: Record<string, string | number>): number {
  return pingPongRun(machine, core, bytes, params).times[0];
}

/** The ping-pong's run: one measured iteration, its time and its steps' totals. */
function pingPongRun(machine: MachineSpec, core: number, bytes: number, params: Record<string, string | number>) {
  return runAlgorithm({
    machine,
    cores: [core, core + 8],
    algorithm: 'pingpong:shm',
    call: { bytes, root: 0, params },
    cache: 'off',
    iterations: 1,
    warmup: 1,
    seed: 'nic',
  });
}

/** Bytes per ns of the data phase: the slope of time against size, so latencies cancel. */
const throughput = (machine: MachineSpec, core: number, params: Record<string, string | number>) =>
  (4 * MiB) / (pingPong(machine, core, 8 * MiB, params) - pingPong(machine, core, 4 * MiB, params));

const dmaEfficiency = (payload: number) => payload / (payload + nicCosts.tlpOverheadBytes);

describe('NIC DMA between hosts', () => {
  it('near its NIC a process gets the PCIe bound: bus bandwidth times payload / (payload + TLP overhead)', () => {
    const bound = nuioa.ioBuses[0].bandwidth * dmaEfficiency(nuioa.nics[0].dmaBytes!);
    expect(throughput(twoHosts, 0, { rails: 'share', railShare: 1 })).toBeCloseTo(bound, 6);
  });

  it("writes into the destination's memory as any write: at its writeCost on one bus, on write lanes of their own", () => {
    // Memory slower than every other resource on the path: the sender's reads and the receiver's
    // writes bound the transfer, the writes at their cost.
    const slow = (o: { writeCost?: number; writeBandwidth?: number }) =>
      clusterOf({ ...nuioa, numaNodes: nuioa.numaNodes.map((n) => ({ ...n, bandwidth: 0.3, ...o })) }, { hosts: 2 });
    const one = { rails: 'share', railShare: 1 };
    expect(throughput(slow({}), 0, one)).toBeCloseTo(0.3, 6);
    expect(throughput(slow({ writeCost: 1.5 }), 0, one)).toBeCloseTo(0.2, 6);
    expect(throughput(slow({ writeBandwidth: 0.25 }), 0, one)).toBeCloseTo(0.25, 6);
  });

  it("two rails whose reads share a link are held by that link's DMA buffers", () => {
    // From NUMA node 2, NIC ib0 is one hop away (pkg2 -> pkg0) and ib1 is routed through pkg0 too.
    const link = nuioa.links.find((l) => l.name === 'HT pkg2-pkg0')!;
    const buffers = (nicCosts.linkDmaBuffers * nicCosts.linkPacketBytes) / (2 * link.latencyNs);
    expect(throughput(twoHosts, 4, { rails: 'even' })).toBeCloseTo(buffers, 6);
  });

  it('sends small messages eagerly in one wire latency, larger ones by a rendezvous of three', () => {
    const latency = nuioa.nics[0].latencyNs!;
    const params = { rails: 'even' };
    // A message's time less the receiver's copy out of the eager buffer, whose cost depends on the
    // caches (cold ones write back what the copy pushes out), not on the protocol.
    const latencies = (bytes: number) => {
      const out = pingPongRun(twoHosts, 0, bytes, params);
      return out.times[0] - (out.totals.copy ?? 0) / 2;
    };
    for (const bytes of [0, 8, netCosts.eagerLimitBytes]) {
      expect(latencies(bytes)).toBeGreaterThan(latency);
      expect(latencies(bytes)).toBeLessThan(2 * latency + bytes);
    }
    expect(latencies(netCosts.eagerLimitBytes + 1)).toBeGreaterThan(3 * latency);
  });

  it('sends an eager message on the heaviest rail', () => {
    const dma = (share: number) => {
      const out = runAlgorithm({
        machine: twoHosts,
        cores: [0, 8],
        algorithm: 'pingpong:shm',
        call: { bytes: 4096, root: 0, params: { rails: 'share', railShare: share } },
        cache: 'off',
        iterations: 1,
        warmup: 0,
        seed: 'nic',
        keepTrace: true,
      });
      return out.events.filter((e) => e.kind === 'nic-dma').map((e) => e.label.replace(/->\d+/, ''));
    };
    expect(dma(0.2)).toEqual(['eager rail 1', 'eager rail 1']);
    expect(dma(0.8)).toEqual(['eager rail 0', 'eager rail 0']);
  });

  it('matches messages in the order they were sent, whatever their sizes and paths', () => {
    const sim = new Simulation({ seed: 'order' });
    const world = new World(new Node(sim, twoHosts), [0, 8]);
    const [a, b] = [0, 1].map((id) => new SimRank(world, id, { rails: 'even' }));
    const sizes = [MiB, 100, 64 * 1024, 0, 5000];
    const sent = sizes.map((bytes, i) => {
      const r = range(a.alloc(`send${i}`, bytes));
      r.buf.content = Content.fresh(bytes, `m${i}`);
      return r;
    });
    const got = sizes.map((bytes, i) => range(b.alloc(`recv${i}`, bytes)));
    runPrograms(sim, [
      (function* () {
        const pending = [];
        for (const r of sent) pending.push(yield* a.p2p.isend(1, r, 7));
        for (const done of pending) yield* done();
      })(),
      (function* () {
        for (const r of got) yield* b.p2p.recv(0, r, 7);
      })(),
    ]);
    got.forEach((r, i) => expect(r.buf.content.equals(Content.fresh(sizes[i], `m${i}`))).toBe(true));
  });

  it('delivers the right bytes in a pairwise all-to-all spanning both hosts', () => {
    const out = runAlgorithm({
      machine: twoHosts,
      cores: [0, 2, 8, 10],
      algorithm: 'alltoallpairs:shm',
      call: { bytes: 300_000, root: 0, params: { rails: 'numa' } },
      cache: 'off',
      iterations: 1,
      warmup: 0,
      seed: 'nic',
    });
    expect(out.times[0]).toBeGreaterThan(0);
    expect(out.totals['nic-dma']).toBeGreaterThan(0);
  });

  it('a machine of one host keeps its ranks off the NICs', () => {
    const out = runAlgorithm({
      machine: clusterOf(nuioa, { hosts: 1 }),
      cores: [0, 2],
      algorithm: 'pingpong:shm',
      call: { bytes: MiB, root: 0, params: {} },
      cache: 'off',
      iterations: 1,
      warmup: 0,
      seed: 'nic',
    });
    expect(out.totals['nic-dma']).toBeUndefined();
  });
});

describe('rails', () => {
  it('split whole bytes that sum to the message, empty chunks for zero weights', () => {
    expect(splitAcrossRails(10, [0.3, 0.7])).toEqual([3, 7]);
    expect(splitAcrossRails(10, [1, 0])).toEqual([10, 0]);
    expect(splitAcrossRails(10, [0, 1])).toEqual([0, 10]);
    expect(splitAcrossRails(7, [1 / 3, 1 / 3, 1 / 3])).toEqual([2, 3, 2]);
  });

  it('weigh rails evenly, by NIC bandwidth, by the throughput each offers, by nearness, or by a share', () => {
    const mixed = clusterOf(nuioa, { hosts: 2, nics: { ib1: 'myri-10g' } });
    const dma = NicDma.of(new Node(new Simulation({ seed: 'x' }), mixed));
    const ib = nuioa.ioBuses[0].bandwidth * dmaEfficiency(128);
    const weights = (policy: 'even' | 'throughput' | 'numa' | 'nearest' | 'share') =>
      railWeights(dma, 0, 0, { policy, share: 0.7 });
    expect(weights('even')).toEqual([0.5, 0.5]);
    expect(weights('throughput')[0]).toBeCloseTo(2.0 / 3.25, 12);
    expect(weights('numa')[0]).toBeCloseTo(ib / (ib + 1.25), 12);
    expect(weights('share')).toEqual([0.7, expect.closeTo(0.3, 12)]);
    const nearest = (numa: number) => railWeights(dma, 0, numa, { policy: 'nearest', share: 0.5 });
    expect([0, 1, 2, 3].map(nearest)).toEqual([
      [1, 0],
      [0, 1],
      [0.5, 0.5],
      [0.5, 0.5],
    ]);
  });

  it("a split's throughput is highest at the share the mono-rail throughputs predict, when the rails share nothing", () => {
    // Any two NICs, any process whose two rails cross disjoint resources on both hosts; the
    // model's resolution here is the grid of shares tried (2 %).
    const disjointCores = [0, 1, 2, 3];
    fc.assert(
      fc.property(
        fc.constantFrom(...disjointCores),
        fc.tuple(fc.double({ min: 0.5, max: 2.5, noNaN: true }), fc.double({ min: 0.5, max: 2.5, noNaN: true })),
        fc.tuple(fc.constantFrom(64, 128, 256, 512), fc.constantFrom(64, 128, 256, 512)),
        (core, [bw0, bw1], [d0, d1]) => {
          const host = {
            ...nuioa,
            nics: nuioa.nics.map((n, i) => ({ ...n, bandwidth: i === 0 ? bw0 : bw1, dmaBytes: i === 0 ? d0 : d1 })),
          };
          const machine = clusterOf(host, { hosts: 2 });
          const share = (s: number) => throughput(machine, core, { rails: 'share', railShare: s });
          const t0 = share(1);
          const t1 = share(0);
          const predicted = t0 / (t0 + t1);
          const atPredicted = share(predicted);
          const grid = Array.from({ length: 51 }, (_, i) => i / 50);
          const best = grid.reduce((a, s) => (share(s) > share(a) ? s : a), 0);
          expect(Math.abs(best - predicted)).toBeLessThanOrEqual(0.02);
          expect(atPredicted).toBeGreaterThanOrEqual(share(best) * (1 - 1e-4));
          // Splitting at the prediction adds the rails' throughputs.
          expect(atPredicted).toBeCloseTo(t0 + t1, 3);
        },
      ),
      { numRuns: propRuns(6) },
    );
  });

  it('when both rails cross one link, the mono-rail prediction no longer gives the best split', () => {
    // NUMA node 2 reads through pkg2 -> pkg0 for either NIC. The link's DMA buffers, shared
    // fairly, hold both rails below what each offers alone, so an even split is best although
    // the mono-rail throughputs (ConnectX against Myri-10G) predict favouring the first NIC.
    const machine = clusterOf(nuioa, { hosts: 2, nics: { ib1: 'myri-10g' } });
    const share = (s: number) => throughput(machine, 4, { rails: 'share', railShare: s });
    const t0 = share(1);
    const t1 = share(0);
    const predicted = t0 / (t0 + t1);
    expect(predicted).toBeGreaterThan(0.55);
    const grid = Array.from({ length: 51 }, (_, i) => i / 50);
    const best = grid.reduce((a, s) => (share(s) > share(a) ? s : a), 0);
    expect(best).toBeCloseTo(0.5, 6);
    expect(share(best)).toBeGreaterThan(share(predicted) * 1.02);
  });
});
