// Intel I/OAT DMA engine: copies memory to memory without a core. One channel per package, a
// FlowNetwork resource of its own bandwidth; a DMA copy still loads the memory controllers of the
// source and destination and every link between them and the engine, but not any core's copy
// engine, so the core that submitted it stays free (Goglin & Moreaud, JPDC 2013, §4.3).
//
// The engine reads the source from its memory and writes the destination to memory: caches are
// bypassed, and the destination's stale lines are dropped from every cache.
import type { Program } from '../engine/program.ts';
import type { Resource } from '../flow/network.ts';
import { packageVertex } from '../../hardware/spec.ts';
import type { Range } from '../node/buffer.ts';
import { add, type Uses } from '../node/node.ts';
import type { World } from '../node/world.ts';
import { knemParam } from './knem/costs.ts';

/** The DMA channel serving `core`'s package, created on first use. */
export function ioatChannel(world: World, core: number): Resource {
  const pkg = world.node.topo.core(core).package;
  const name = `ioat pkg${pkg}`;
  return world.node.net.resource(name) ?? world.node.net.addResource(name, knemParam(world.node.spec, 'ioatBandwidth'));
}

export interface DmaPiece {
  src: Range;
  dst: Range;
}

/**
 * Runs a chain of DMA descriptors on the channel of `core`'s package: the channel fetches the chain
 * once (`ioatSetupNs`), then moves each piece in order. Content moves as it was when each piece
 * started, as with a core copy.
 */
export function* ioatCopy(
  world: World,
  core: number,
  pieces: readonly DmaPiece[],
  info: { rank: number; label: string },
): Program<void> {
  const { node } = world;
  const channel = ioatChannel(world, core);
  const engineVertex = packageVertex(node.topo.core(core).package);
  let latency = knemParam(node.spec, 'ioatSetupNs');
  for (const { src, dst } of pieces) {
    if (src.bytes !== dst.bytes)
      throw new RangeError(`ioat ${info.label}: source has ${src.bytes} bytes, destination ${dst.bytes}`);
    if (src.bytes === 0) continue;
    const callerNuma = node.topo.core(core).numa;
    src.buf.home ??= callerNuma;
    dst.buf.home ??= callerNuma;
    const from = node.topo.numa(src.buf.home);
    const to = node.topo.numa(dst.buf.home);
    const uses: Uses = new Map();
    add(uses, channel, 1);
    add(uses, node.memoryResource(from.id), 1);
    node.addMemoryWriteUse(uses, to.id, 1);
    for (const link of node.routeResources(from.attach, engineVertex)) add(uses, link, 1);
    for (const link of node.routeResources(engineVertex, to.attach)) add(uses, link, 1);
    const snapshot = src.buf.content.slice(src.offset, src.bytes);
    const start = world.sim.now;
    yield* node.flow(src.bytes, uses, latency + from.latencyNs, info.label);
    latency = 0;
    dst.buf.content.write(dst.offset, snapshot);
    for (const cache of node.spec.caches) node.cache(cache.id).invalidateRange(dst.buf.id, dst.offset, dst.bytes);
    node.trace.record({
      rank: info.rank,
      kind: 'kernel-copy',
      label: info.label,
      start,
      end: world.sim.now,
      bytes: src.bytes,
      resource: channel.name,
    });
  }
}
