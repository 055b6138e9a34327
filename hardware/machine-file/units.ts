// Quantities a machine file may write with a unit. A bare number is in the model's own unit
// (bytes, GB/s = bytes/ns, ns, GHz), so a preset can always be written without units.

import type { YamlValue } from '../../common/yaml/value.ts';
import { ownEntry } from '../../common/own-key.ts';

type UnitTable = Record<string, number>;

const SIZE_UNITS: UnitTable = { B: 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40 };
// Decimal size prefixes are ambiguous for caches ("8 MB" of L3 is 8 MiB), so they are refused.
const AMBIGUOUS_SIZE_UNITS: Record<string, string> = { KB: 'KiB', kB: 'KiB', MB: 'MiB', GB: 'GiB', TB: 'TiB' };
const BANDWIDTH_UNITS: UnitTable = {
  'GB/s': 1,
  'MB/s': 1e-3,
  'TB/s': 1e3,
  'GiB/s': 2 ** 30 / 1e9,
  'MiB/s': 2 ** 20 / 1e9,
};
const TIME_UNITS: UnitTable = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9 };
const FREQUENCY_UNITS: UnitTable = { GHz: 1, MHz: 1e-3 };

function withUnit(node: YamlValue, units: UnitTable, what: string, modelUnit: string): number {
  if (node.kind() !== 'scalar') node.fail(`expected ${what}, got ${node.describe()}`);
  const value = node.required(what);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) node.fail(`expected a finite ${what.replace(/^an? /, '')}, got ${node.describe()}`);
    return value;
  }
  if (typeof value !== 'string') node.fail(`expected ${what}, got ${node.describe()}`);
  const m = /^\s*(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-zµ/]+)?\s*$/.exec(value);
  if (!m) node.fail(`cannot read '${value}' as ${what} (write e.g. a number in ${modelUnit})`);
  const amount = Number(m[1]);
  const unit = m[2];
  if (unit === undefined) return amount;
  const factor = ownEntry(units, unit);
  if (factor === undefined) {
    const fix = ownEntry(AMBIGUOUS_SIZE_UNITS, unit);
    const hint = fix && units === SIZE_UNITS ? ` ('${unit}' is ambiguous; write ${m[1]}${fix})` : '';
    node.fail(`unknown unit '${unit}' in '${value}'${hint}; known units: ${Object.keys(units).join(', ')}`);
  }
  return amount * factor;
}

function positive(node: YamlValue, value: number, what: string): number {
  if (!(value > 0)) node.fail(`${what} must be positive, got ${value}`);
  return value;
}

function nonNegative(node: YamlValue, value: number, what: string): number {
  if (!(value >= 0)) node.fail(`${what} must not be negative, got ${value}`);
  return value;
}

/** Bytes: 4096, "32KiB", "4 MiB". Must be a positive whole number of bytes. */
export function readSize(node: YamlValue): number {
  const bytes = positive(node, withUnit(node, SIZE_UNITS, 'a size', 'bytes'), 'a size');
  if (!Number.isInteger(bytes)) node.fail(`a size must be a whole number of bytes, got ${bytes}`);
  return bytes;
}

/** Bytes per ns: 12.8, "12.8GB/s", "800MB/s". */
export function readBandwidth(node: YamlValue): number {
  return positive(node, withUnit(node, BANDWIDTH_UNITS, 'a bandwidth', 'GB/s'), 'a bandwidth');
}

/** Nanoseconds: 100, "100ns", "0.5us". Zero is allowed (a cost that does not exist). */
export function readTime(node: YamlValue): number {
  return nonNegative(node, withUnit(node, TIME_UNITS, 'a duration', 'ns'), 'a duration');
}

/** GHz: 2.4, "2.4GHz", "2400MHz". */
export function readFrequency(node: YamlValue): number {
  return positive(node, withUnit(node, FREQUENCY_UNITS, 'a frequency', 'GHz'), 'a frequency');
}
