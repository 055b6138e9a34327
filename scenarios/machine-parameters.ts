// `sweep: { machine.links.*.bandwidth: [...] }`: machine parameters as sweep axes. Each combination
// of their values is a variant of every swept machine, built as a persistent structure that shares
// what it does not change (hardware/variant/), validated as a machine file is, and one more table.
import { InputError } from '../common/input-error.ts';
import type { YamlValue } from '../common/yaml/value.ts';
import type { MachineSpec } from '../hardware/spec.ts';
import { validateMachine } from '../hardware/validate.ts';
import { MachineVariants, toSpec, type LeafChange } from '../hardware/variant/machine-variant.ts';
import { ParameterPathError, parsePath, resolvePath, type ResolvedLeaf } from '../hardware/variant/parameter-path.ts';
import { PARAMETERS, type ParameterValue } from '../hardware/variant/parameters.ts';
import type { MachineParameter } from './scenario.ts';
import { MACHINE_PARAMETER_PREFIX } from './scenario-document.ts';

/** One machine-parameter axis as written: its path (without `machine.`) and its values. */
export interface ParameterAxis {
  path: string;
  field: YamlValue;
  values: YamlValue[];
}

/** Reads the axes' keys and lists; what depends on a machine is checked by `variantsOf`. */
export function readParameterAxes(entries: [string, YamlValue][]): ParameterAxis[] {
  return entries.map(([key, field]) => {
    const path = key.slice(MACHINE_PARAMETER_PREFIX.length);
    try {
      parsePath(path);
    } catch (e) {
      if (e instanceof ParameterPathError) throw field.error(`machine parameter '${path}': ${e.message}`);
      throw e;
    }
    const values = field.items(`sweep.${key}`);
    if (values.length === 0) throw field.error(`sweep.${key} must list at least one value`);
    return { path, field, values };
  });
}

interface ResolvedAxis {
  axis: ParameterAxis;
  leaves: ResolvedLeaf[];
  values: { value: ParameterValue; shown: string; field: YamlValue }[];
}

/** A machine's variant for one combination: its spec and the parameters it changes. */
export interface MachineVariant {
  spec: MachineSpec;
  parameters: MachineParameter[];
}

/**
 * Every combination of the axes' values (the first axis outermost) applied to `base`. `machineRef`
 * names the machine in errors, since a path may fit one swept machine and not another.
 */
export function variantsOf(base: MachineSpec, axes: readonly ParameterAxis[], machineRef: string): MachineVariant[] {
  const resolved = axes.map((axis) => resolveAxis(base, axis, machineRef));
  checkOverlaps(resolved, machineRef);
  const variants = new MachineVariants(base);
  const out: MachineVariant[] = [];
  const combination = (i: number, chosen: ResolvedAxis['values']): void => {
    if (i === resolved.length) return void out.push(build(variants, resolved, chosen, machineRef));
    for (const v of resolved[i].values) combination(i + 1, [...chosen, v]);
  };
  combination(0, []);
  return out;
}

function resolveAxis(base: MachineSpec, axis: ParameterAxis, machineRef: string): ResolvedAxis {
  let leaves: ResolvedLeaf[];
  try {
    leaves = resolvePath(base, axis.path);
  } catch (e) {
    if (e instanceof ParameterPathError)
      throw axis.field.error(`machine parameter '${axis.path}' on machine '${machineRef}': ${e.message}`);
    throw e;
  }
  // Indices aside, every leaf of one path sits at the same place, so one kind reads its values.
  const kind = PARAMETERS[leaves[0].place];
  const values = axis.values.map((field) => {
    let value: ParameterValue;
    try {
      value = kind.read(field);
    } catch (e) {
      if (e instanceof InputError) throw field.error(`${axis.path} must be ${kind.what}: ${e.detail}`);
      throw e;
    }
    return { value, shown: String(field.scalar()), field };
  });
  values.forEach((v, i) => {
    const earlier = values.findIndex((o) => o.value === v.value);
    if (earlier < i) throw v.field.error(`${axis.path}: ${v.shown} is listed twice (as ${values[earlier].shown})`);
  });
  return { axis, leaves, values };
}

/** Two axes setting the same leaf would make one of them meaningless. */
function checkOverlaps(resolved: ResolvedAxis[], machineRef: string): void {
  const owner = new Map<string, string>();
  for (const r of resolved) {
    for (const leaf of r.leaves) {
      const key = leaf.steps.join('.');
      const other = owner.get(key);
      if (other !== undefined)
        throw r.axis.field.error(
          `machine parameter '${r.axis.path}' sets ${key} of machine '${machineRef}', which '${other}' sets too; sweep each parameter once`,
        );
      owner.set(key, r.axis.path);
    }
  }
}

function build(
  variants: MachineVariants,
  resolved: ResolvedAxis[],
  chosen: ResolvedAxis['values'],
  machineRef: string,
): MachineVariant {
  const changes: LeafChange[] = resolved.flatMap((r, i) =>
    r.leaves.map((leaf) => ({ steps: leaf.steps, value: chosen[i].value })),
  );
  const spec = toSpec(variants.variant(changes));
  const parameters = resolved.map((r, i) => ({ path: r.axis.path, value: chosen[i].value, shown: chosen[i].shown }));
  try {
    validateMachine(spec);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const named = parameters.map((p) => `${p.path} = ${p.shown}`).join(', ');
    const where = e.location.field ? ` (${e.location.field})` : '';
    // Blame the value that set what the validator names (`numaNodes[1].writeCost`), else the last.
    const setField = e.location.field?.replace(/\[(\d+)\]/g, '.$1');
    const culprit = resolved.findIndex((r) => r.leaves.some((l) => l.steps.join('.') === setField));
    throw chosen[culprit >= 0 ? culprit : chosen.length - 1].field.error(
      `machine '${machineRef}' with ${named} is not a valid machine${where}: ${e.detail}`,
    );
  }
  return { spec, parameters };
}
