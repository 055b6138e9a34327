// What-if edits: a copy of the machine with some constants changed, validated as a machine file is.
import { InputError } from '../../common/input-error.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { validateMachine } from '../../hardware/validate.ts';
import type { MachineEdit } from './protocol.ts';

export function applyEdits(spec: MachineSpec, edits: readonly MachineEdit[]): MachineSpec {
  const out = structuredClone(spec);
  for (const e of edits) {
    const where = `what-if ${e.kind}${e.id ? ` ${e.id}` : ''}`;
    if (!(e.value > 0) || !Number.isFinite(e.value))
      throw new InputError(`must be a positive number, got ${e.value}`, { field: where });
    switch (e.kind) {
      case 'link':
        find(out.links, (l) => l.name === e.id, where).bandwidth = e.value;
        break;
      case 'cache': {
        // `level:N` is every cache of level N (memory-side caches aside), else one cache by id.
        const level = /^level:(\d+)$/.exec(e.id);
        const caches = level ? out.caches.filter((c) => c.level === Number(level[1]) && !c.memorySide) : [];
        if (level && caches.length === 0)
          throw new InputError('no cache of that level in this machine', { field: where });
        for (const c of level ? caches : [find(out.caches, (k) => k.id === e.id, where)]) c.sizeBytes = e.value;
        break;
      }
      case 'numa':
        find(out.numaNodes, (n) => String(n.id) === e.id, where).bandwidth = e.value;
        break;
      case 'copy':
        out.costs.copyBandwidth = e.value;
        break;
      case 'controllers':
        keepControllers(out, e.value, where);
        break;
    }
  }
  out.name = edits.length > 0 ? `${spec.name} (what-if)` : spec.name;
  validateMachine(out, (field) => ({ field: `what-if ${field}` }));
  return out;
}

function find<T>(list: T[], match: (x: T) => boolean, where: string): T {
  const found = list.find(match);
  if (found === undefined) throw new InputError('no such part in this machine', { field: where });
  return found;
}

/**
 * Fewer memory controllers: the first `count` NUMA nodes (in the machine's order) stay; the cores
 * and memory of every other node go to the kept ones in turn (node k's to kept node k mod count),
 * as if the board had fewer controllers serving the same cores. Adding controllers would need
 * constants (bandwidth, latency, where they attach) that no source gives, so it is refused.
 */
function keepControllers(spec: MachineSpec, count: number, where: string): void {
  const nodes = spec.numaNodes;
  if (!Number.isInteger(count) || count > nodes.length)
    throw new InputError(
      `can only keep a whole number of the ${nodes.length} memory controllers there are, got ${count}`,
      {
        field: where,
      },
    );
  const kept = nodes.slice(0, count);
  const home = new Map(nodes.map((n, k) => [n.id, kept[k % count]]));
  for (const n of nodes.slice(count)) home.get(n.id)!.memoryBytes += n.memoryBytes;
  for (const core of spec.cores) core.numa = home.get(core.numa)!.id;
  if (spec.distances) spec.distances = spec.distances.slice(0, count).map((row) => row.slice(0, count));
  spec.numaNodes = kept;
}
