// A flag written by one core and polled by several (docs/model.md, "A flag many cores poll"):
// properties over the presets' cores, never against typed-in times.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flagPollingCosts } from '../../sim/node/flag-polling.ts';
import { Topology } from '../../sim/node/topology.ts';
import { loadPreset, presetNames } from '../../hardware/presets.ts';

const topologies = new Map(presetNames().map((name) => [name, new Topology(loadPreset(name))]));

const arbPolling = fc
  .record({
    machine: fc.constantFrom(...topologies.keys()),
    writer: fc.nat(),
    pollers: fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
  })
  .map(({ machine, writer, pollers }) => {
    const topo = topologies.get(machine)!;
    const cores = topo.spec.cores.map((c) => c.id);
    const w = cores[writer % cores.length];
    const others = cores.filter((c) => c !== w);
    return { topo, writer: w, pollers: pollers.map((p) => others[p % others.length]) };
  });

const line = (topo: Topology) => (a: number, b: number) => topo.lineLatency(a, b);

describe('a flag many cores poll', () => {
  it('one poller: the write and the read cost one line transfer each', () => {
    fc.assert(
      fc.property(arbPolling, ({ topo, writer, pollers }) => {
        const one = flagPollingCosts(line(topo), writer, [pollers[0]]);
        const transfer = topo.lineLatency(writer, pollers[0]);
        expect(one.write).toBe(transfer);
        expect(one.seen).toEqual([transfer]);
      }),
    );
  });

  it('costs are never negative, and no poller sees the flag sooner than one transfer from the writer', () => {
    fc.assert(
      fc.property(arbPolling, ({ topo, writer, pollers }) => {
        const c = flagPollingCosts(line(topo), writer, pollers);
        expect(c.write).toBeGreaterThanOrEqual(0);
        pollers.forEach((p, i) => expect(c.seen[i]).toBeGreaterThanOrEqual(topo.lineLatency(writer, p)));
      }),
    );
  });

  it('one more poller never makes the write or the last sighting cheaper', () => {
    fc.assert(
      fc.property(arbPolling, fc.nat(), ({ topo, writer, pollers }, extra) => {
        const cores = topo.spec.cores.map((c) => c.id).filter((c) => c !== writer);
        const more = [...pollers, cores[extra % cores.length]];
        const before = flagPollingCosts(line(topo), writer, pollers);
        const after = flagPollingCosts(line(topo), writer, more);
        expect(after.write).toBeGreaterThanOrEqual(before.write);
        expect(Math.max(...after.seen)).toBeGreaterThan(Math.max(...before.seen));
      }),
    );
  });

  it('the last poller sees the flag later when the pollers sit on another socket than the writer', () => {
    for (const [name, topo] of topologies) {
      const w = topo.spec.cores[0];
      const near = topo.spec.cores.filter((c) => c.id !== w.id && c.package === w.package).map((c) => c.id);
      const far = topo.spec.cores.filter((c) => c.package !== w.package).map((c) => c.id);
      const n = Math.min(near.length, far.length);
      if (n === 0) continue;
      const nearLast = Math.max(...flagPollingCosts(line(topo), w.id, near.slice(0, n)).seen);
      const farLast = Math.max(...flagPollingCosts(line(topo), w.id, far.slice(0, n)).seen);
      expect(farLast, name).toBeGreaterThan(nearLast);
    }
  });
});
