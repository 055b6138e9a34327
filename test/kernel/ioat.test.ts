import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { ioatChannel, ioatCopy, type DmaPiece } from '../../sim/kernel/ioat.ts';
import { runPrograms } from '../helpers/run-programs.ts';

// Two packages with one core and one NUMA node each, one L3 per package, one link between them.
const SETUP = 1000;
const MEM_LATENCY = 80;

function machine(
  o: { memory?: number; link?: number; ioat?: number; writeCost?: number; writeLanes?: number } = {},
): MachineSpec {
  return {
    name: 'ioat-test',
    description: 'two packages, one core and one NUMA node each',
    origin: 'test',
    packages: [0, 1].map((id) => ({ id, model: 'test' })),
    hubs: [],
    numaNodes: [0, 1].map((id) => ({
      id,
      attach: `pkg${id}`,
      memoryBytes: 1 << 30,
      bandwidth: o.memory ?? 100,
      latencyNs: MEM_LATENCY,
      kind: 'dram' as const,
      ...(o.writeCost === undefined ? {} : { writeCost: o.writeCost }),
      ...(o.writeLanes === undefined ? {} : { writeBandwidth: o.writeLanes }),
    })),
    cores: [0, 1].map((id) => ({ id, package: id, numa: id, frequencyGHz: 2, threads: 1 })),
    caches: [0, 1].map((id) => ({
      id: `L3#${id}`,
      level: 3,
      sizeBytes: 8 << 20,
      cores: [id],
      bandwidth: 50,
      latencyNs: 15,
    })),
    links: [{ name: 'QPI', a: 'pkg0', b: 'pkg1', bandwidth: o.link ?? 100, latencyNs: 50 }],
    routing: { kind: 'shortest' },
    ioBuses: [],
    nics: [],
    costs: { copyBandwidth: 8, reduceBandwidth: 4 },
    kernel: {
      version: 'test',
      mechanisms: { cma: false, knem: true, xpmem: false, limic: false, ioat: true },
      syscallNs: 100,
      pageBytes: 4096,
      pinPerPageNs: 100,
      cmaLockMode: 'exclusive',
      params: { ioatBandwidth: o.ioat ?? 2, ioatSetupNs: SETUP },
    },
    guessed: [],
  };
}

function setup(o: Parameters<typeof machine>[0] = {}) {
  const sim = new Simulation({ seed: 1 });
  const node = new Node(sim, machine(o), { keepTrace: true });
  const world = new World(node, [0, 1]);
  const buf = (name: string, bytes: number, numa: number) => {
    const b = node.allocate(name, bytes, 0, numa);
    b.content = Content.fresh(bytes, name);
    return b;
  };
  const dma = (jobs: Array<{ core: number; pieces: DmaPiece[] }>): number[] =>
    runPrograms(
      sim,
      jobs.map((j, i) => ioatCopy(world, j.core, j.pieces, { rank: i, label: `dma${i}` })),
      (i) => `dma${i}`,
    );
  return { sim, node, world, buf, dma };
}

const n = 1 << 20;

describe('I/OAT DMA engine', () => {
  it('copies at the channel bandwidth after the chain setup, without loading any core', () => {
    const { node, buf, dma } = setup();
    const src = buf('src', n, 0);
    const dst = buf('dst', n, 0);
    const [end] = dma([{ core: 0, pieces: [{ src: range(src), dst: range(dst) }] }]);
    expect(end).toBeCloseTo(SETUP + MEM_LATENCY + n / 2, 6);
    expect(dst.content.equals(src.content)).toBe(true);
    expect(node.coreResource(0).bytesCarried).toBe(0);
    expect(node.coreResource(1).bytesCarried).toBe(0);
    const ev = node.trace.events.find((e) => e.kind === 'kernel-copy');
    expect(ev?.resource).toBe('ioat pkg0');
  });

  it('still loads the memory controllers: a slow memory bounds the DMA', () => {
    const { buf, dma } = setup({ memory: 3, ioat: 10 });
    const src = buf('src', n, 0);
    const dst = buf('dst', n, 0);
    // Source read and destination write both cross mem0: 3 / 2 B/ns.
    const [end] = dma([{ core: 0, pieces: [{ src: range(src), dst: range(dst) }] }]);
    expect(end).toBeCloseTo(SETUP + MEM_LATENCY + n / 1.5, 6);
  });

  it("writes the destination as any write: at the node's writeCost on one bus, on write lanes of their own", () => {
    // Source read (1) and destination write (writeCost) cross mem0 at 3 B/ns: 3 / 2.5.
    const costly = setup({ memory: 3, ioat: 10, writeCost: 1.5 });
    const [slow] = costly.dma([
      { core: 0, pieces: [{ src: range(costly.buf('src', n, 0)), dst: range(costly.buf('dst', n, 0)) }] },
    ]);
    expect(slow).toBeCloseTo(SETUP + MEM_LATENCY + n / 1.2, 6);
    // Reads on the read lanes at 3 B/ns, writes on their own at 2: the write lanes bound it.
    const lanes = setup({ memory: 3, ioat: 10, writeLanes: 2 });
    const [end] = lanes.dma([
      { core: 0, pieces: [{ src: range(lanes.buf('src', n, 0)), dst: range(lanes.buf('dst', n, 0)) }] },
    ]);
    expect(end).toBeCloseTo(SETUP + MEM_LATENCY + n / 2, 6);
    expect(lanes.node.memoryResource(0).bytesCarried).toBeCloseTo(n, 0);
    expect(lanes.node.memoryWriteLanes(0)!.bytesCarried).toBeCloseTo(n, 0);
  });

  it('crosses the links between the memories and the engine', () => {
    const { buf, dma } = setup({ link: 1, ioat: 10 });
    const src = buf('src', n, 1);
    const dst = buf('dst', n, 0);
    // Engine on package 0 (core 0's); source on NUMA 1: every byte crosses pkg1->pkg0 at 1 B/ns.
    const [end] = dma([{ core: 0, pieces: [{ src: range(src), dst: range(dst) }] }]);
    expect(end).toBeCloseTo(SETUP + MEM_LATENCY + n / 1, 6);
  });

  it('one channel per package: two DMAs of one package share it, of two packages do not', () => {
    const same = setup();
    const s = [0, 1].map((i) => ({
      core: 0,
      pieces: [{ src: range(same.buf(`s${i}`, n, 0)), dst: range(same.buf(`d${i}`, n, 0)) }],
    }));
    const sameEnds = same.dma(s);
    expect(sameEnds[0]).toBeCloseTo(SETUP + MEM_LATENCY + (2 * n) / 2, 6);
    expect(sameEnds[1]).toBeCloseTo(sameEnds[0], 6);

    const apart = setup();
    const a = [0, 1].map((i) => ({
      core: i,
      pieces: [{ src: range(apart.buf(`s${i}`, n, i)), dst: range(apart.buf(`d${i}`, n, i)) }],
    }));
    const apartEnds = apart.dma(a);
    expect(apartEnds[0]).toBeCloseTo(SETUP + MEM_LATENCY + n / 2, 6);
    expect(apartEnds[1]).toBeCloseTo(SETUP + MEM_LATENCY + n / 2, 6);
    expect(ioatChannel(apart.world, 0)).not.toBe(ioatChannel(apart.world, 1));
  });

  it('pays the chain setup once for a chain of pieces', () => {
    const { buf, dma } = setup();
    const src = buf('src', n, 0);
    const dst = buf('dst', n, 0);
    const half = n / 2;
    const [end] = dma([
      {
        core: 0,
        pieces: [
          { src: range(src, half, half), dst: range(dst, 0, half) },
          { src: range(src, 0, half), dst: range(dst, half, half) },
        ],
      },
    ]);
    expect(end).toBeCloseTo(SETUP + 2 * MEM_LATENCY + n / 2, 6);
    expect(dst.content.slice(0, half)).toEqual(src.content.slice(half, half));
    expect(dst.content.slice(half, half)).toEqual(src.content.slice(0, half));
  });

  it('drops the destination from every cache (the engine writes memory)', () => {
    const { sim, node, buf, dma } = setup();
    const src = buf('src', 64 * 1024, 0);
    const dst = buf('dst', 64 * 1024, 0);
    sim.spawn('warm', node.copy(0, range(src), range(dst), { rank: 0, label: 'warm' }));
    sim.run();
    expect(node.cache('L3#0').residentBytes(dst.id, 0, dst.size)).toBe(dst.size);
    dma([{ core: 0, pieces: [{ src: range(src), dst: range(dst) }] }]);
    expect(node.cache('L3#0').residentBytes(dst.id, 0, dst.size)).toBe(0);
    expect(node.cache('L3#0').residentBytes(src.id, 0, src.size)).toBe(src.size);
  });
});
