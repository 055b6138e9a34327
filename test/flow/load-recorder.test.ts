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
