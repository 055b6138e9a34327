// The plain shared-memory double copy: the sender copies each chunk into a slot of a bounce ring
// shared with the receiver, signals it, and the receiver copies the chunk out and hands the slot
// back. The ring is a real buffer in the node model, so it takes cache space and memory bandwidth.
import type { Program } from '../engine/program.ts';
import { range, type Buffer, type Range } from '../node/buffer.ts';
import type { World } from '../node/world.ts';
import { softwareCosts } from './software-costs.ts';

interface Ring {
  slots: Buffer;
  chunk: number;
  count: number;
}

export interface PipelineShape {
  chunkBytes: number;
  slots: number;
}

const defaultShape: PipelineShape = { chunkBytes: softwareCosts.pipelineChunkBytes, slots: softwareCosts.pipelineSlots };

function ring(world: World, from: number, to: number, shape: PipelineShape): Ring {
  return world.state(`shm-ring ${from}>${to} ${shape.chunkBytes}x${shape.slots}`, () => ({
    // Owned by nobody: its pages land where it is first written (the sender's node).
    slots: world.node.allocate(`ring ${from}>${to}`, shape.chunkBytes * shape.slots, -1),
    chunk: shape.chunkBytes,
    count: shape.slots,
  }));
}

/** Cost of posting or seeing one small notification between two ranks (queue cell handoff). */
function* notify(world: World, from: number, to: number, channel: string, value: unknown): Program<void> {
  const { node, cores } = world;
  const line = node.topo.lineLatency(cores[from], cores[to]);
  yield* node.sim.sleep(softwareCosts.controlSideNs + line);
  world.deliver(from, to, channel, value, line);
}

export function* shmSend(world: World, me: number, to: number, data: Range, tag: number, shape = defaultShape): Program<void> {
  const r = ring(world, me, to, shape);
  const chunks = Math.max(1, Math.ceil(data.bytes / r.chunk));
  const core = world.cores[me];
  for (let i = 0; i < chunks; i++) {
    // Slot reuse waits for the receiver to have drained it.
    if (i >= r.count) yield* world.receive(to, me, `shm-free ${tag}`);
    const bytes = Math.min(r.chunk, data.bytes - i * r.chunk);
    const slot = range(r.slots, (i % r.count) * r.chunk, bytes);
    yield* world.node.copy(core, range(data.buf, data.offset + i * r.chunk, bytes), slot, { rank: me, label: `copy-in ->${to}` });
    yield* notify(world, me, to, `shm-ready ${tag}`, { total: data.bytes, bytes });
  }
}

export function* shmRecv(world: World, me: number, from: number, into: Range, tag: number, shape = defaultShape): Program<void> {
  const r = ring(world, from, me, shape);
  const core = world.cores[me];
  let received = 0;
  let i = 0;
  do {
    const start = world.sim.now;
    const header = (yield* world.receive(from, me, `shm-ready ${tag}`)) as { total: number; bytes: number };
    world.node.trace.record({ rank: me, kind: 'wait', label: `shm<-${from}`, start, end: world.sim.now, bytes: 0 });
    if (header.total !== into.bytes) {
      throw new RangeError(`rank ${me} posted a receive of ${into.bytes} bytes from rank ${from}, which sent ${header.total}`);
    }
    const slot = range(r.slots, (i % r.count) * r.chunk, header.bytes);
    yield* world.node.copy(core, slot, range(into.buf, into.offset + received, header.bytes), { rank: me, label: `copy-out <-${from}` });
    received += header.bytes;
    i++;
    // The sender only waits for slots it will reuse.
    if (received < into.bytes && i + r.count - 1 < Math.ceil(into.bytes / r.chunk)) yield* notify(world, me, from, `shm-free ${tag}`, i);
  } while (received < into.bytes);
}
