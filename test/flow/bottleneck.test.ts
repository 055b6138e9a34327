// The resource a flow is bounded by, as competitors come and go, and the one it was bounded by for
// the longest time. Times are worked out by hand from the capacities.
import { describe, expect, it } from 'vitest';
import { FlowNetwork } from '../../sim/flow/network.ts';
import { FakeScheduler } from './fake-scheduler.ts';

/**
 * X crosses `a` (4 B/ns) and `b` (6 B/ns) with 100 B and runs alone at 4, bounded by a. At t=10 Y
 * starts on b alone: b would need 2r <= 6, so both run at 3 and X is bounded by b. When Y is done X
 * is back on a at 4.
 */
function competitorComesAndGoes(yBytes: number) {
  const sched = new FakeScheduler();
  const net = new FlowNetwork(sched);
  const a = net.addResource('a', 4);
  const b = net.addResource('b', 6);
  const x = net.start({ bytes: 100, uses: [{ resource: a }, { resource: b }], label: 'x' });
  return { sched, net, a, b, x, startY: () => net.start({ bytes: yBytes, uses: [{ resource: b }], label: 'y' }) };
}

describe('Flow.bottleneck', () => {
  it('follows a competitor that starts and finishes; the main one is the longest held', () => {
    // Y carries 45 B at 3 B/ns: done at 25. X has carried 40 + 45 = 85 B, so 15 B at 4 B/ns: done at
    // 28.75. Bounded by a for 10 + 3.75 ns, by b for 15 ns.
    const { sched, a, b, x, startY } = competitorComesAndGoes(45);
    expect(x.bottleneck).toBe(a);
    expect(x.mainBottleneck()).toBeUndefined();
    sched.runUntil(10);
    const y = startY();
    expect([x.rate, y.rate]).toEqual([3, 3]);
    expect(x.bottleneck).toBe(b);
    expect(y.bottleneck).toBe(b);
    sched.runUntil(25);
    expect(y.finishedAt).toBe(25);
    expect(y.bottleneck).toBeUndefined();
    expect(y.mainBottleneck()).toBe(b);
    expect(x.rate).toBe(4);
    expect(x.bottleneck).toBe(a);
    expect(x.mainBottleneck()).toBeUndefined();
    sched.runAll();
    expect(x.finishedAt).toBeCloseTo(28.75, 9);
    expect(x.bottleneck).toBeUndefined();
    expect(x.mainBottleneck()).toBe(b);
  });

  it('adds up the time of every stretch on the same resource', () => {
    // Y carries 36 B: done at 22. X then has 100 - 40 - 36 = 24 B left, done at 28. Bounded by a for
    // 10 + 6 = 16 ns, by b for 12 ns: neither stretch on a alone outlasts the one on b.
    const { sched, a, b, x, startY } = competitorComesAndGoes(36);
    sched.runUntil(10);
    startY();
    expect(x.bottleneck).toBe(b);
    sched.runUntil(22);
    expect(x.bottleneck).toBe(a);
    sched.runAll();
    expect(x.finishedAt).toBeCloseTo(28, 9);
    expect(x.mainBottleneck()).toBe(a);
  });

  it('keeps its bottleneck when a change makes another resource saturate at the same rate', () => {
    // X on a (4) and b (8) runs at 4, bounded by a. Y joins b: b gives 8 / 2 = 4 each, so b saturates
    // too, at X's unchanged rate; both certify it, and X stays on a (without that preference, this
    // solve's resource order would name b).
    const sched = new FakeScheduler();
    const net = new FlowNetwork(sched);
    const a = net.addResource('a', 4);
    const b = net.addResource('b', 8);
    const x = net.start({ bytes: 100, uses: [{ resource: b }, { resource: a }] });
    expect(x.bottleneck).toBe(a);
    const y = net.start({ bytes: 100, uses: [{ resource: b }] });
    expect([x.rate, y.rate]).toEqual([4, 4]);
    expect(x.bottleneck).toBe(a);
    expect(y.bottleneck).toBe(b);
    sched.runAll();
    expect(x.mainBottleneck()).toBe(a);
  });

  it('has none during the latency phase, and a flow of no bytes has no main one', () => {
    const sched = new FakeScheduler();
    const net = new FlowNetwork(sched);
    const a = net.addResource('a', 4);
    const late = net.start({ bytes: 8, uses: [{ resource: a }], latency: 5 });
    const empty = net.start({ bytes: 0, uses: [{ resource: a }], latency: 1 });
    expect(late.bottleneck).toBeUndefined();
    sched.runUntil(5);
    expect(late.bottleneck).toBe(a);
    sched.runAll();
    expect(late.mainBottleneck()).toBe(a);
    expect(empty.finishedAt).toBe(1);
    expect(empty.mainBottleneck()).toBeUndefined();
  });
});
