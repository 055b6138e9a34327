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
      case 'cache':
        find(out.caches, (c) => c.id === e.id, where).sizeBytes = e.value;
        break;
      case 'numa':
        find(out.numaNodes, (n) => String(n.id) === e.id, where).bandwidth = e.value;
        break;
      case 'copy':
        out.costs.copyBandwidth = e.value;
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
