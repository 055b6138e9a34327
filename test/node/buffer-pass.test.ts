// A rank's own pass over its buffer (Node.pass): a program writing what it will send or reading
// what it received. The caches see it as a copy's destination or source; the content stays.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import type { Program } from '../../sim/engine/program.ts';
import { Node } from '../../sim/node/node.ts';
import { range, type Buffer } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import type { TraceEvent } from '../../sim/node/trace.ts';
import { loadPreset } from '../../hardware/presets.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { tinyMachine } from '../helpers/machines.ts';
import { run } from '../p2p/run.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
// Two sockets of six cores, 256 KiB L2 per core, 12 MiB L3 per socket, QPI between them.
const westmere = loadPreset('westmere');
const otherSocket = westmere.cores.find((c) => c.package !== westmere.cores[0].package)!.id;

/** Runs `steps` on a fresh node (one buffer of `bytes` homed on core 0's NUMA node) and returns
 *  every step's trace event, in order. */
function steps(spec: MachineSpec, bytes: number, make: (node: Node, buf: Buffer) => Program<void>[]): TraceEvent[] {
  const sim = new Simulation({ seed: 1 });
  const node = new Node(sim, spec, { keepTrace: true });
  const buf = node.allocate('buf', bytes, 0, spec.cores[0].numa);
  buf.content = Content.fresh(bytes, 'data');
  sim.spawn(
    'passes',
    (function* () {
      for (const step of make(node, buf)) yield* step;
    })(),
  );
  sim.run();
  return node.trace.events;
}

const read = (node: Node, buf: Buffer, core: number, label = 'read') =>
  node.pass(core, range(buf), 'read', { rank: core, label });
const write = (node: Node, buf: Buffer, core: number, label = 'write') =>
  node.pass(core, range(buf), 'write', { rank: core, label });
const took = (e: TraceEvent) => e.end - e.start;

describe('a pass over a buffer', () => {
  it('leaves the content as it was, written or read', () => {
    const sim = new Simulation({ seed: 1 });
    const node = new Node(sim, tinyMachine());
    const buf = node.allocate('buf', 10_000, 0, 0);
    buf.content = Content.fresh(10_000, 'data');
    sim.spawn(
      'passes',
      (function* () {
        yield* node.pass(0, range(buf), 'write', { rank: 0, label: 'write' });
        yield* node.pass(1, range(buf), 'read', { rank: 1, label: 'read' });
      })(),
    );
    sim.run();
    expect(buf.content.equals(Content.fresh(10_000, 'data'))).toBe(true);
  });

  it('reads from memory when cold, bounded there, and from its own cache, bounded by its core, once it wrote the buffer', () => {
    const [cold] = steps(westmere, 1 * MiB, (node, buf) => [read(node, buf, 0)]);
    const [, warm] = steps(westmere, 1 * MiB, (node, buf) => [write(node, buf, 0), read(node, buf, 0)]);
    expect(took(warm)).toBeLessThan(took(cold));
    expect(cold.resource).not.toBe(`core${westmere.cores[0].id}`);
    expect(warm.resource).toBe(`core${westmere.cores[0].id}`);
  });

  it("reads a buffer another socket's core just wrote from that socket's cache, across the link", () => {
    const [, fromCache] = steps(westmere, 1 * MiB, (node, buf) => [write(node, buf, 0), read(node, buf, otherSocket)]);
    const [fromMemory] = steps(westmere, 1 * MiB, (node, buf) => [read(node, buf, otherSocket)]);
    // Both cross QPI; the remote cache answers sooner than the remote memory, so the stream of a
    // latency-bound core runs faster from it.
    expect(took(fromCache)).toBeLessThan(took(fromMemory));
    expect(fromCache.resource).toMatch(/QPI/);
  });

  it('is bounded by the core: a reading pass at its load rate, a writing pass at its copy rate', () => {
    // A core far slower than everything else it touches: its own limit binds both passes.
    const slow = tinyMachine({ copyBandwidth: 0.5 });
    const spec = { ...slow, costs: { ...slow.costs, reduceBandwidth: 1 } };
    const bytes = 64 * KiB;
    const [w, r] = steps(spec, bytes, (node, buf) => [write(node, buf, 0), read(node, buf, 0)]);
    expect(bytes / took(w)).toBeCloseTo(0.5, 2);
    expect(bytes / took(r)).toBeCloseTo(1, 2);
  });

  it('records its step in the trace under its access', () => {
    const events = steps(tinyMachine(), 4096, (node, buf) => [
      write(node, buf, 0, 'init'),
      read(node, buf, 0, 'check'),
    ]);
    expect(events.map((e) => [e.kind, e.label])).toEqual([
      ['buffer-write', 'init'],
      ['buffer-read', 'check'],
    ]);
  });
});

describe("the KNEM copy-strategy benchmark's buffer use (param touch)", () => {
  const machine = tinyMachine();
  for (const algorithm of [
    'knemcopy:inline-read',
    'knemcopy:inline-write',
    'knemcopy:region-read',
    'knemcopy:region-write',
  ]) {
    // Not at 1 byte: the writer's pass may then run while it waits for the reader's cookie, and its
    // copy reads the source from its own cache instead of memory.
    it(`${algorithm}: delivers the data and, from a page, takes longer touching both buffers`, () => {
      for (const bytes of [1, 4097, 256 * KiB]) {
        const plain = run({ machine, cores: [0, 2], algorithm, bytes });
        const touched = run({ machine, cores: [0, 2], algorithm, bytes, params: { touch: true } });
        expect(touched.totals['buffer-write'], `${bytes} B`).toBeGreaterThan(0);
        expect(touched.totals['buffer-read'], `${bytes} B`).toBeGreaterThan(0);
        expect(plain.totals['buffer-write'] ?? 0).toBe(0);
        if (bytes > 1)
          for (let i = 0; i < plain.times.length; i++) expect(touched.times[i]).toBeGreaterThan(plain.times[i]);
      }
    });
  }

  it('each side writes its source just before it sends and reads its destination just after it receives', () => {
    const { events: trace } = run({
      machine,
      cores: [0, 2],
      algorithm: 'knemcopy:inline-read',
      bytes: 64 * KiB,
      params: { touch: true },
      iterations: 1,
      keepTrace: true,
    });
    const events = trace.filter((e) => e.bytes > 0);
    // Per rank, in time order: the steps that move the message's bytes.
    const of = (rank: number) =>
      events
        .filter((e) => e.rank === rank)
        .sort((a, b) => a.start - b.start)
        .map((e) => `${e.kind} ${e.label.split(' ')[0]}`);
    // The timed iteration's steps (the trace starts afresh after the warm-up).
    expect(of(0)).toEqual(['buffer-write write', 'kernel-copy knem', 'buffer-read read']);
    expect(of(1)).toEqual(['kernel-copy knem', 'buffer-read read', 'buffer-write write']);
    // The copy of the ping starts once rank 0's write of its source has ended.
    const ping = events.find((e) => e.rank === 1 && e.kind === 'kernel-copy')!;
    const init = events.find((e) => e.rank === 0 && e.kind === 'buffer-write')!;
    expect(ping.start).toBeGreaterThanOrEqual(init.end);
  });

  it('rejects a touch that is not true or false, naming the field', () => {
    expect(() =>
      run({ machine, cores: [0, 2], algorithm: 'knemcopy:inline-read', bytes: 4096, params: { touch: 'yes' } }),
    ).toThrow(/params\.touch must be true or false, got "yes"/);
  });
});
