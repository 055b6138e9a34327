// What-if edits: the machine with some constants changed, built as a variant of it by the same
// module as a scenario's machine-parameter sweep (hardware/variant/), validated as a machine file is.
import { InputError } from '../../common/input-error.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { validateMachine } from '../../hardware/validate.ts';
import { MachineVariants, toSpec, type MachineChange } from '../../hardware/variant/machine-variant.ts';
import type { MachineEdit } from './protocol.ts';

export function applyEdits(spec: MachineSpec, edits: readonly MachineEdit[]): MachineSpec {
  const changes: MachineChange[] = [];
  // Fewer controllers changes the structure the other edits name parts of, so it comes last.
  let controllers: { count: number; where: string } | undefined;
  for (const e of edits) {
    const where = `what-if ${e.kind}${e.id ? ` ${e.id}` : ''}`;
    if (!(e.value > 0) || !Number.isFinite(e.value))
      throw new InputError(`must be a positive number, got ${e.value}`, { field: where });
    switch (e.kind) {
      case 'link':
        changes.push({
          steps: ['links', find(spec.links, (l) => l.name === e.id, where), 'bandwidth'],
          value: e.value,
        });
        break;
      case 'cache': {
        // `level:N` is every cache of level N (memory-side caches aside), else one cache by id.
        const level = /^level:(\d+)$/.exec(e.id);
        const indices = level
          ? spec.caches.flatMap((c, i) => (c.level === Number(level[1]) && !c.memorySide ? [i] : []))
          : [find(spec.caches, (k) => k.id === e.id, where)];
        if (level && indices.length === 0)
          throw new InputError('no cache of that level in this machine', { field: where });
        for (const i of indices) changes.push({ steps: ['caches', i, 'sizeBytes'], value: e.value });
        break;
      }
      case 'numa':
        changes.push({
          steps: ['numaNodes', find(spec.numaNodes, (n) => String(n.id) === e.id, where), 'bandwidth'],
          value: e.value,
        });
        break;
      case 'copy':
        changes.push({ steps: ['costs', 'copyBandwidth'], value: e.value });
        break;
      case 'controllers':
        controllers = { count: e.value, where };
        break;
    }
  }
  if (controllers) changes.push(...keepControllers(spec, controllers.count, controllers.where));
  if (edits.length > 0) changes.push({ steps: ['name'], value: `${spec.name} (what-if)` });
  const out = toSpec(new MachineVariants(spec).variant(changes));
  validateMachine(out, (field) => ({ field: `what-if ${field}` }));
  return out;
}

function find<T>(list: readonly T[], match: (x: T) => boolean, where: string): number {
  const found = list.findIndex(match);
  if (found < 0) throw new InputError('no such part in this machine', { field: where });
  return found;
}

/**
 * Fewer memory controllers: the first `count` NUMA nodes (in the machine's order) stay; the cores
 * and memory of every other node go to the kept ones in turn (node k's to kept node k mod count),
 * as if the board had fewer controllers serving the same cores. Adding controllers would need
 * constants (bandwidth, latency, where they attach) that no source gives, so it is refused.
 */
function keepControllers(spec: MachineSpec, count: number, where: string): MachineChange[] {
  const nodes = spec.numaNodes;
  if (!Number.isInteger(count) || count > nodes.length)
    throw new InputError(
      `can only keep a whole number of the ${nodes.length} memory controllers there are, got ${count}`,
      { field: where },
    );
  const home = new Map(nodes.map((n, k) => [n.id, k % count]));
  const memory = nodes.slice(0, count).map((n) => n.memoryBytes);
  for (const n of nodes.slice(count)) memory[home.get(n.id)!] += n.memoryBytes;
  const changes: MachineChange[] = memory.map((bytes, k) => ({ steps: ['numaNodes', k, 'memoryBytes'], value: bytes }));
  spec.cores.forEach((core, i) => changes.push({ steps: ['cores', i, 'numa'], value: nodes[home.get(core.numa)!].id }));
  if (spec.distances) {
    changes.push({ steps: ['distances'], keep: count });
    for (let row = 0; row < count; row++) changes.push({ steps: ['distances', row], keep: count });
  }
  changes.push({ steps: ['numaNodes'], keep: count });
  return changes;
}
