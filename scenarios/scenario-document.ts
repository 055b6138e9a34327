// The top-level mapping of a scenario file: its keys by name, whether each is fixed or swept, and
// the root to point at when a required key is missing.
import type { YamlValue } from '../common/yaml/value.ts';

export const SCENARIO_KEYS = [
  'name',
  'description',
  'machine',
  'hosts',
  'ranks',
  'placement',
  'smt',
  'operation',
  'algorithms',
  'sizes',
  'root',
  'counts',
  'cache',
  'buffers',
  'iterations',
  'warmup',
  'seed',
  'skew',
  'baseline',
  'sweep',
] as const;
/** Keys that may be given as a list of values under `sweep:`, one table per value. */
export const SWEEP_KEYS = ['ranks', 'machine', 'placement', 'root', 'seed'] as const;
/** Axes that exist only under `sweep:`: they vary a transport parameter of the algorithms. */
export const SWEEP_ONLY_KEYS = ['railShare'] as const;

/** A `sweep` key that starts so names machine parameters (scenarios/machine-parameters.ts). */
export const MACHINE_PARAMETER_PREFIX = 'machine.';

const isParameterKey = (key: string): boolean => key.startsWith(MACHINE_PARAMETER_PREFIX);

export type ScenarioKey = (typeof SCENARIO_KEYS)[number];
export type SweepKey = (typeof SWEEP_KEYS)[number];
export type SweepOnlyKey = (typeof SWEEP_ONLY_KEYS)[number];

export class ScenarioDocument {
  private readonly fields: Map<string, YamlValue>;
  private swept: Map<string, YamlValue> | undefined;

  constructor(readonly root: YamlValue) {
    if (!root.present) {
      throw root.error(
        'the scenario is empty; expected a mapping with operation, algorithms, sizes, machine and ranks',
      );
    }
    if (root.kind() === 'map') {
      const parameter = [...root.entries('the scenario')].find(([key]) => isParameterKey(key));
      if (parameter)
        throw parameter[1].error(
          `'${parameter[0]}' is a machine parameter, which a scenario sweeps: write it under sweep, with a list of values`,
        );
    }
    this.fields = root.entries('the scenario', SCENARIO_KEYS);
  }

  /** The key's value, or undefined when the key is not written. */
  get(key: ScenarioKey): YamlValue | undefined {
    const field = this.fields.get(key);
    return field?.present ? field : undefined;
  }

  required(key: ScenarioKey): YamlValue {
    const field = this.get(key);
    if (!field) throw this.root.error(`the scenario needs '${key}'`);
    return field;
  }

  /** `sweep` keys naming machine parameters (`machine.links.*.bandwidth`), each with its list. */
  machineParameters(): [string, YamlValue][] {
    return [...this.sweepEntries()].filter(([key]) => isParameterKey(key));
  }

  private sweepEntries(): Map<string, YamlValue> {
    if (this.swept) return this.swept;
    const sweep = this.get('sweep');
    // Machine parameters are open-ended paths; every other key must be one of SWEEP_KEYS or
    // SWEEP_ONLY_KEYS. Read on first use, so that the loader's order of reading fixes which of two
    // mistakes is reported.
    const parameters = sweep?.kind() === 'map' ? [...sweep.entries('sweep').keys()].filter(isParameterKey) : [];
    this.swept =
      sweep?.entries('sweep', [...SWEEP_KEYS, ...SWEEP_ONLY_KEYS, ...parameters]) ?? new Map<string, YamlValue>();
    if (sweep && this.swept.size === 0)
      sweep.fail('sweep names no axis: give a key with its list of values, or leave sweep out');
    return this.swept;
  }

  /** The values of a sweepable key: its list under `sweep`, its one fixed value, or undefined. */
  values(key: SweepKey): YamlValue[] | undefined {
    const swept = this.sweepEntries().get(key);
    const fixed = this.get(key);
    if (!swept?.present) return fixed ? [fixed] : undefined;
    if (fixed) throw fixed.error(`'${key}' is given both here and under sweep; keep one`);
    const items = swept.items(`sweep.${key}`);
    if (items.length === 0) throw swept.error(`sweep.${key} must list at least one value`);
    return items;
  }

  /** The list under `sweep` of an axis that has no fixed form, or undefined when not swept. */
  sweptOnly(key: SweepOnlyKey): YamlValue[] | undefined {
    const swept = this.sweepEntries().get(key);
    if (!swept?.present) return undefined;
    const items = swept.items(`sweep.${key}`);
    if (items.length === 0) throw swept.error(`sweep.${key} must list at least one value`);
    return items;
  }
}
