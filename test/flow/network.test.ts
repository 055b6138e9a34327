import { describe, expect, it } from 'vitest';
import { FlowNetwork, type Resource } from '../../sim/flow/network.ts';
import { FakeScheduler } from './fake-scheduler.ts';

function setup() {
  const sched = new FakeScheduler();
  const net = new FlowNetwork(sched);
  return { sched, net };
}

describe('FlowNetwork by hand', () => {
  it('runs a lone flow at the smallest capacity on its path', () => {
    const { sched, net } = setup();
    const a = net.addResource('a', 10);
    const b = net.addResource('b', 4);
    const f = net.start({ bytes: 1000, uses: [{ resource: a }, { resource: b }] });
    expect(f.rate).toBe(4);
    let firedAt: number | undefined;
    f.onFire(() => (firedAt = sched.now));
    sched.runAll();
    expect(f.finishedAt).toBe(250);
    expect(firedAt).toBe(250);
    expect(f.remaining()).toBe(0);
    expect(f.rate).toBe(0);
    expect(a.bytesCarried).toBeCloseTo(1000, 9);
    expect(b.bytesCarried).toBeCloseTo(1000, 9);
    expect(net.activeFlowCount).toBe(0);
  });

  it('splits one resource in half, then gives the survivor all of it', () => {
    const { sched, net } = setup();
    const r = net.addResource('mc0', 10);
    const small = net.start({ bytes: 100, uses: [{ resource: r }] });
    const big = net.start({ bytes: 300, uses: [{ resource: r }] });
    expect([small.rate, big.rate]).toEqual([5, 5]);
    expect(r.activeFlows).toBe(2);
    sched.runUntil(10);
    expect(big.remaining()).toBeCloseTo(250, 9);
    sched.runAll();
    // small: 100 B at 5 B/ns ends at 20; big has 200 B left, then runs alone at 10 B/ns.
    expect(small.finishedAt).toBe(20);
    expect(big.finishedAt).toBeCloseTo(40, 9);
    expect(r.bytesCarried).toBeCloseTo(400, 9);
  });

  it('charges a weight-2 flow twice its rate on the resource', () => {
    const { sched, net } = setup();
    const link = net.addResource('link', 9);
    const other = net.addResource('other', 100);
    const heavy = net.start({ bytes: 30, uses: [{ resource: link, weight: 2 }, { resource: other }] });
    const light = net.start({ bytes: 30, uses: [{ resource: link }] });
    expect([heavy.rate, light.rate]).toEqual([3, 3]);
    sched.runAll();
    expect(heavy.finishedAt).toBe(10);
    expect(light.finishedAt).toBe(10);
    expect(link.bytesCarried).toBeCloseTo(90, 9);
    expect(other.bytesCarried).toBeCloseTo(30, 9);
  });

  it('delays the start by exactly the latency, using no bandwidth meanwhile', () => {
    const { sched, net } = setup();
    const r = net.addResource('r', 4);
    const f = net.start({ bytes: 400, uses: [{ resource: r }], latency: 100 });
    sched.runUntil(50);
    expect(f.rate).toBe(0);
    expect(f.remaining()).toBe(400);
    expect(r.activeFlows).toBe(0);
    expect(r.bytesCarried).toBe(0);
    sched.runUntil(100);
    expect(f.rate).toBe(4);
    sched.runAll();
    expect(f.startedAt).toBe(0);
    expect(f.finishedAt).toBe(200);
  });

  it('completes a zero-byte flow after its latency alone', () => {
    const { sched, net } = setup();
    const r = net.addResource('r', 4);
    const f = net.start({ bytes: 0, uses: [{ resource: r }], latency: 7 });
    const g = net.start({ bytes: 0, uses: [{ resource: r }] });
    sched.runAll();
    expect(f.finishedAt).toBe(7);
    expect(g.finishedAt).toBe(0);
    expect(net.stats.solves).toBe(0);
  });

  it('finishes flows that end together in one batch with one re-solve', () => {
    const { sched, net } = setup();
    const r = net.addResource('r', 2);
    const s = net.addResource('s', 1);
    const a = net.start({ bytes: 100, uses: [{ resource: r }] });
    const b = net.start({ bytes: 100, uses: [{ resource: r }] });
    const c = net.start({ bytes: 500, uses: [{ resource: r }, { resource: s }] });
    // All three share r at 2/3 each (s, at 1, does not bind c yet); a and b end together at 150.
    const order: string[] = [];
    a.onFire(() => order.push(`a@${sched.now}`));
    b.onFire(() => order.push(`b@${sched.now}`));
    const before = net.stats.solves;
    sched.runUntil(150);
    expect(order).toEqual(['a@150', 'b@150']);
    expect(net.stats.solves - before).toBe(1);
    expect(c.rate).toBe(1);
    sched.runAll();
    expect(c.finishedAt).toBeCloseTo(150 + (500 - 100), 9);
  });

  it('re-solves only the component a change touches', () => {
    const { net } = setup();
    const left = net.addResource('left', 10);
    const right = net.addResource('right', 10);
    net.start({ bytes: 1e6, uses: [{ resource: left }] });
    net.start({ bytes: 1e6, uses: [{ resource: left }] });
    const before = { ...net.stats };
    const lone = net.start({ bytes: 1e6, uses: [{ resource: right }] });
    expect(net.stats.solves - before.solves).toBe(1);
    expect(net.stats.flowsResolved - before.flowsResolved).toBe(1);
    expect(lone.rate).toBe(10);
  });

  /** Two copies on their own cores (1 each) and one memory of `memory`; then a third starts. */
  function thirdCopy(memory: number) {
    const { net } = setup();
    const mem = net.addResource('memory', memory);
    const cores = [0, 1, 2].map((i) => net.addResource(`core ${i}`, 1));
    const copy = (core: Resource) => net.start({ bytes: 1e6, uses: [{ resource: core }, { resource: mem }] });
    const first = [copy(cores[0]), copy(cores[1])];
    const before = { ...net.stats };
    const third = copy(cores[2]);
    return {
      rates: [...first, third].map((f) => f.rate),
      solves: net.stats.solves - before.solves,
      resolved: net.stats.flowsResolved - before.flowsResolved,
      load: mem.load,
    };
  }

  it('re-solves only the flows a change can move: a resource with room couples nobody', () => {
    // The memory carries 2 of its 100: the third copy's start moves no other flow's rate.
    const t = thirdCopy(100);
    expect([t.solves, t.resolved]).toEqual([1, 1]);
    expect(t.rates).toEqual([1, 1, 1]);
    expect(t.load).toBe(3);
  });

  it('widens the re-solve to the flows of a resource the new rates saturate', () => {
    // At 1 each, three copies would ask 3 of the memory's 2.5: all three share it instead.
    const t = thirdCopy(2.5);
    expect([t.solves, t.resolved]).toEqual([1, 3]);
    for (const rate of t.rates) expect(rate).toBeCloseTo(2.5 / 3, 12);
    expect(t.load).toBeCloseTo(2.5, 12);
  });

  it('takes in every resource the new rates saturate in one more solve, not one each', () => {
    const { sched, net } = setup();
    // D holds most of R; when it ends, each P_i rises on R until its S_i, shared with O_i, fills.
    const n = 50;
    const r = net.addResource('R', n + 1);
    const s = Array.from({ length: n }, (_, i) => net.addResource(`S${i}`, 1.5));
    const t = Array.from({ length: n }, (_, i) => net.addResource(`T${i}`, 0.6));
    net.start({ bytes: 1, uses: [{ resource: r, weight: n }] });
    for (let i = 0; i < n; i++) {
      net.start({ bytes: 1e9, uses: [{ resource: r }, { resource: s[i] }] });
      net.start({ bytes: 1e9, uses: [{ resource: s[i] }, { resource: t[i] }] });
    }
    sched.runUntil(0);
    const before = net.stats.widenings;
    sched.runUntil(10);
    expect(net.stats.widenings - before).toBe(1);
    for (const x of s) expect(x.load).toBeCloseTo(1.5, 9);
  });

  it('leaves a resource its last flow left with no load at all', () => {
    const { sched, net } = setup();
    const x = net.addResource('x', 10);
    const p = net.addResource('p', 0.1);
    const q = net.addResource('q', 0.2);
    net.start({ bytes: 1, uses: [{ resource: x }, { resource: p }] });
    net.start({ bytes: 1, uses: [{ resource: x }, { resource: q }] });
    sched.runAll();
    expect(x.load).toBe(0);
  });

  it('keeps finishing flows whose component split off after a shared re-solve', () => {
    const { sched, net } = setup();
    const a = net.addResource('a', 1);
    const b = net.addResource('b', 1);
    // x bridges a and b; once it ends, p and q are re-solved together but no longer share anything.
    const x = net.start({ bytes: 1, uses: [{ resource: a }, { resource: b }] });
    const p = net.start({ bytes: 10, uses: [{ resource: a }] });
    const q = net.start({ bytes: 20, uses: [{ resource: b }] });
    sched.runAll();
    expect(x.finishedAt).toBe(2);
    expect(p.finishedAt).toBe(11);
    expect(q.finishedAt).toBe(21);
    expect(net.activeFlowCount).toBe(0);
  });

  it('lets a completion callback start the next flow', () => {
    const { sched, net } = setup();
    const r = net.addResource('r', 1);
    const first = net.start({ bytes: 10, uses: [{ resource: r }] });
    let second: ReturnType<typeof net.start> | undefined;
    first.onFire(() => {
      second = net.start({ bytes: 5, uses: [{ resource: r }], label: 'second' });
    });
    sched.runAll();
    expect(second?.startedAt).toBe(10);
    expect(second?.finishedAt).toBe(15);
    expect(second?.description).toContain('second');
  });

  it('rejects bad resources and requests with a clear message', () => {
    const { net } = setup();
    const r = net.addResource('r', 1);
    expect(() => net.addResource('r', 2)).toThrow(/already exists/);
    expect(() => net.addResource('x', 0)).toThrow(/capacity of "x"/);
    expect(() => net.addResource('y', Infinity)).toThrow(/positive finite/);
    expect(() => net.start({ bytes: 1, uses: [] })).toThrow(/at least one resource/);
    expect(() => net.start({ bytes: -1, uses: [{ resource: r }] })).toThrow(/bytes/);
    expect(() => net.start({ bytes: 1, uses: [{ resource: r, weight: 0 }] })).toThrow(/uses\[0\]\.weight/);
    expect(() => net.start({ bytes: 1, uses: [{ resource: r }], latency: NaN })).toThrow(/latency/);
    const elsewhere = new FlowNetwork(new FakeScheduler()).addResource('r', 1);
    expect(() => net.start({ bytes: 1, uses: [{ resource: elsewhere }] })).toThrow(/does not belong/);
    // Named by the flow, and a hole in the list is refused where it is, not skipped.
    expect(() => net.start({ bytes: 1, uses: [{ resource: r, weight: -1 }], label: 'mine' })).toThrow(
      'FlowNetwork.start (mine): uses[0].weight must be a positive finite number, got -1',
    );
    // eslint-disable-next-line no-sparse-arrays
    expect(() => net.start({ bytes: 1, uses: [{ resource: r }, , { resource: r }] as never })).toThrow(
      /uses\[1\] is missing/,
    );
    expect(net.resource('r')).toBe(r);
    expect(net.resource('nope')).toBeUndefined();
    expect(net.resources).toEqual([r]);
  });

  it('starts a flow from a map of uses as from the same list, leaving out shares of no bytes', () => {
    const run = (start: (net: FlowNetwork, a: Resource, b: Resource, c: Resource) => void) => {
      const { sched, net } = setup();
      const [a, b, c] = ['a', 'b', 'c'].map((name) => net.addResource(name, 10));
      start(net, a, b, c);
      net.start({ bytes: 500, uses: [{ resource: b }] });
      sched.runAll();
      return [a, b, c].map((r) => [r.bytesCarried, r.activeFlows]);
    };
    const listed = run((net, a, b) => {
      const f = net.start({
        bytes: 1000,
        uses: [
          { resource: b, weight: 2 },
          { resource: a, weight: 0.5 },
        ],
        label: 'l',
      });
      expect(f.rate).toBe(5);
    });
    const mapped = run((net, a, b, c) => {
      const uses = new Map([
        [b, 2],
        [c, 0],
        [a, 0.5],
      ]);
      const f = net.startMapped(1000, uses, 0, 'm');
      expect(f.rate).toBe(5);
      expect(f.description).toBe('flow m (1000 B over b, a)');
    });
    expect(mapped).toEqual(listed);
  });

  it('refuses a map of uses it cannot run, naming the flow', () => {
    const { net } = setup();
    const r = net.addResource('r', 1);
    const elsewhere = new FlowNetwork(new FakeScheduler()).addResource('r', 1);
    expect(() => net.startMapped(1, new Map([[r, 0]]), 0, 'idle')).toThrow(
      'FlowNetwork.start (idle): a flow must use at least one resource, or nothing bounds its rate',
    );
    expect(() => net.startMapped(1, new Map([[r, Infinity]]), 0, 'big')).toThrow(
      'FlowNetwork.start (big): the weight of r must be a positive finite number, got Infinity',
    );
    expect(() => net.startMapped(1, new Map([[elsewhere, 1]]), 0, 'far')).toThrow(/\(far\): .*does not belong/);
    expect(() => net.startMapped(NaN, new Map([[r, 1]]), 0, 'n')).toThrow(/\(n\): bytes/);
    expect(() => net.startMapped(1, new Map([[r, 1]]), -1, 'l')).toThrow(/\(l\): latency/);
    expect(net.activeFlowCount).toBe(0);
  });
});
