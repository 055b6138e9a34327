// The what-if form: the machine's bandwidths and shared cache sizes as fields; a changed field is an
// edit, run beside the original machine.
import type { MachineSpec } from '../../../hardware/spec.ts';
import type { MachineEdit } from '../protocol.ts';

interface Field {
  kind: MachineEdit['kind'];
  id: string;
  label: string;
  /** Shown value = bytes value / scale. */
  value: number;
  scale: number;
  unit: string;
}

const MIB = 1024 * 1024;

function fieldsOf(spec: MachineSpec): Field[] {
  const out: Field[] = [
    { kind: 'copy', id: '', label: 'core copy bandwidth', value: spec.costs.copyBandwidth, scale: 1, unit: 'GB/s' },
  ];
  out.push({
    kind: 'controllers',
    id: '',
    label: 'memory controllers (fewer: cores share)',
    value: spec.numaNodes.length,
    scale: 1,
    unit: '',
  });
  for (const n of spec.numaNodes)
    out.push({
      kind: 'numa',
      id: String(n.id),
      label: `memory controller mem${n.id}`,
      value: n.bandwidth,
      scale: 1,
      unit: 'GB/s',
    });
  for (const l of spec.links)
    out.push({ kind: 'link', id: l.name, label: `link ${l.name}`, value: l.bandwidth, scale: 1, unit: 'GB/s' });
  // Shared caches one by one; a level with many (KNL's 34 L2 tiles) as one field for all of them.
  const shared = spec.caches.filter((k) => k.cores.length > 1 && !k.memorySide);
  for (const level of [...new Set(shared.map((k) => k.level))].sort()) {
    const all = spec.caches.filter((k) => k.level === level && !k.memorySide);
    const mine = shared.filter((k) => k.level === level);
    if (mine.length > 4)
      out.push({
        kind: 'cache',
        id: `level:${level}`,
        label: `every L${level} cache (${all.length})`,
        value: all[0].sizeBytes,
        scale: MIB,
        unit: 'MiB',
      });
    else
      for (const c of mine)
        out.push({
          kind: 'cache',
          id: c.id,
          label: `cache ${c.id} (L${c.level})`,
          value: c.sizeBytes,
          scale: MIB,
          unit: 'MiB',
        });
  }
  return out;
}

export class EditsView {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private edits: MachineEdit[] = [];
  onChange: (edits: MachineEdit[]) => void = () => {};

  constructor() {
    this.element = document.createElement('details');
    this.element.className = 'edits';
    (this.element as HTMLDetailsElement).open = true;
    const summary = document.createElement('summary');
    summary.textContent = 'What-if machine edits';
    const reset = document.createElement('button');
    reset.textContent = 'Reset';
    reset.name = 'reset-edits';
    reset.addEventListener('click', () => {
      this.edits = [];
      this.onChange(this.edits);
      this.list.querySelectorAll('input').forEach((i) => {
        i.value = i.dataset.original!;
        i.classList.remove('changed');
      });
    });
    this.list = document.createElement('div');
    this.list.className = 'edit-fields';
    this.element.append(summary, this.list, reset);
  }

  /** Lists the fields of `spec` (the scenario's first machine), filled with the current edits. */
  show(spec: MachineSpec, edits: MachineEdit[]): void {
    this.edits = edits;
    this.list.replaceChildren(
      ...fieldsOf(spec).map((f) => {
        const row = document.createElement('label');
        const input = document.createElement('input');
        input.type = 'number';
        input.step = f.kind === 'controllers' ? '1' : 'any';
        input.min = '0';
        const original = Number((f.value / f.scale).toPrecision(6));
        const edit = edits.find((e) => e.kind === f.kind && e.id === f.id);
        input.value = String(edit ? Number((edit.value / f.scale).toPrecision(6)) : original);
        input.dataset.original = String(original);
        input.dataset.kind = f.kind;
        input.dataset.id = f.id;
        input.addEventListener('change', () => {
          const v = Number(input.value);
          this.edits = this.edits.filter((e) => !(e.kind === f.kind && e.id === f.id));
          if (input.value !== '' && v !== original) this.edits.push({ kind: f.kind, id: f.id, value: v * f.scale });
          input.classList.toggle('changed', input.value !== '' && v !== original);
          this.onChange(this.edits);
        });
        input.classList.toggle('changed', edit !== undefined);
        const name = document.createElement('span');
        name.textContent = f.label;
        const unit = document.createElement('span');
        unit.className = 'unit';
        unit.textContent = f.unit;
        row.append(name, input, unit);
        return row;
      }),
    );
  }
}
