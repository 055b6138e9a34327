import { describe, expect, it } from 'vitest';
import { FlowNetwork } from '../../sim/flow/network.ts';
import { LoadRecorder } from '../../sim/flow/load-recorder.ts';
import { FakeScheduler } from './fake-scheduler.ts';

describe('LoadRecorder', () => {
  it('keeps each resource load as a step function of time', () => {
    const sched = new FakeScheduler();
    const net = new FlowNetwork(sched);
    const mc = net.addResource('mc0', 10);
    const slow = net.addResource('slow', 2);
    const mid = net.addResource('mid', 5);
    const idle = net.addResource('idle', 10);
    const rec = new LoadRecorder(net, 0);
    net.start({ bytes: 20, uses: [{ resource: mc }, { resource: slow }] });
    net.start({ bytes: 200, uses: [{ resource: mc }, { resource: mid }] });
    sched.runAll();
    // 2 + 5 bytes/ns cross mc0 until the first flow ends at 10, then 5 until the second ends at 40.
    const series = rec.used().find((s) => s.resource === 'mc0')!;
    expect(series.capacity).toBe(10);
    expect(series.times).toEqual([0, 10, 40]);
    expect(series.loads).toEqual([7, 5, 0]);
    expect(rec.used().map((s) => s.resource)).not.toContain(idle.name);
  });

  it('forgets what came before a reset', () => {
    const sched = new FakeScheduler();
    const net = new FlowNetwork(sched);
    const r = net.addResource('link', 4);
    const rec = new LoadRecorder(net, 0);
    net.start({ bytes: 40, uses: [{ resource: r }] });
    sched.runAll();
    rec.reset(sched.now);
    expect(rec.used()).toEqual([]);
    sched.runUntil(20);
    net.start({ bytes: 8, uses: [{ resource: r }] });
    sched.runAll();
    expect(rec.used()).toEqual([{ resource: 'link', capacity: 4, times: [10, 20, 22], loads: [0, 4, 0] }]);
  });

  it('repeats a logged span by its marks after the changes before it are forgotten, and refuses a forgotten one', () => {
    const sched = new FakeScheduler();
    const net = new FlowNetwork(sched);
    const r = net.addResource('link', 4);
    const rec = new LoadRecorder(net, 0, { log: true });
    net.start({ bytes: 8, uses: [{ resource: r }] });
    sched.runAll();
    const from = rec.mark();
    sched.runUntil(10);
    net.start({ bytes: 4, uses: [{ resource: r }] });
    sched.runAll();
    const to = rec.mark();
    expect([from, to]).toEqual([2, 4]);
    rec.forget(from);
    // The marks still count from the reset: the span is the 4-byte flow's, 10 to 11.
    expect(rec.mark()).toBe(to);
    rec.repeat(from, to, (t) => t + 20);
    expect(rec.used()[0].times).toEqual([0, 2, 10, 11, 30, 31]);
    expect(rec.used()[0].loads).toEqual([4, 0, 4, 0, 4, 0]);
    rec.forget(to);
    expect(() => rec.repeat(from, to, (t) => t)).toThrow(/forgotten/);
  });

  it('names the flows crossing a resource at each change when asked', () => {
    const sched = new FakeScheduler();
    const net = new FlowNetwork(sched);
    const mc = net.addResource('mc0', 10);
    const slow = net.addResource('slow', 2);
    const rec = new LoadRecorder(net, 0, { flows: true });
    net.start({ bytes: 20, uses: [{ resource: mc }, { resource: slow }], label: 'a' });
    net.start({ bytes: 200, uses: [{ resource: mc }], label: 'b' });
    sched.runAll();
    const series = rec.used().find((s) => s.resource === 'mc0')!;
    expect(series.times).toEqual([0, 10, 22]);
    expect(series.flows!.map((f) => [...f].sort())).toEqual([['a', 'b'], ['b'], []]);
  });
});
