// The machine parameters a sweep or the visualizer's what-if form may change, by where they sit in
// a MachineSpec, and how a written value of each is read: with the units the machine file takes for
// the same field (units.ts), so `5GB/s`, `80ns` or `2MiB` mean here what they mean there.
import type { YamlValue } from '../../common/yaml/value.ts';
import { KERNEL_PARAMS } from '../kernel-params.ts';
import { KERNEL_STORES } from '../spec.ts';
import { readBandwidth, readSize, readTime } from '../machine-file/units.ts';

export type ParameterValue = number | string | boolean;

export interface ParameterKind {
  /** What a value must be, for messages: "a bandwidth (GB/s, MB/s...)". */
  what: string;
  read(node: YamlValue): ParameterValue;
}

const bandwidth: ParameterKind = { what: 'a bandwidth', read: readBandwidth };
const duration: ParameterKind = { what: 'a duration', read: readTime };
const size: ParameterKind = { what: 'a size', read: readSize };
const count: ParameterKind = { what: 'an integer >= 1', read: (node) => node.integer(1) };
const flag: ParameterKind = { what: 'true or false', read: (node) => node.boolean() };
const positiveNumber: ParameterKind = {
  what: 'a positive number',
  read: (node) => {
    const v = node.number();
    if (!(v > 0)) node.fail(`must be positive, got ${v}`);
    return v;
  },
};
const nonNegativeNumber: ParameterKind = {
  what: 'a number >= 0',
  read: (node) => {
    const v = node.number();
    if (!(v >= 0)) node.fail(`must not be negative, got ${v}`);
    return v;
  },
};
const oneOf = (choices: readonly string[]): ParameterKind => ({
  what: `one of ${choices.join(', ')}`,
  read: (node) => node.oneOf(choices),
});

/**
 * Sweepable leaves by their place in the spec, list indices left out (`links.bandwidth` is the
 * bandwidth of any link) and a map's entry as `*` (`kernel.params.*`). What is not listed (names,
 * ids, which cores share a cache, where a node attaches) is the machine's structure, which a
 * parameter sweep keeps: a different structure is a different machine file.
 */
export const PARAMETERS: Readonly<Record<string, ParameterKind>> = {
  'numaNodes.bandwidth': bandwidth,
  'numaNodes.latencyNs': duration,
  'numaNodes.peerLatencyNs': duration,
  'numaNodes.writeCost': positiveNumber,
  'numaNodes.writeBandwidth': bandwidth,
  'caches.sizeBytes': size,
  'caches.bandwidth': bandwidth,
  'caches.latencyNs': duration,
  'caches.peerLatencyNs': duration,
  'caches.victim': flag,
  'links.bandwidth': bandwidth,
  'links.latencyNs': duration,
  'ioBuses.bandwidth': bandwidth,
  'nics.bandwidth': bandwidth,
  'nics.dmaBytes': size,
  'nics.latencyNs': duration,
  'costs.copyBandwidth': bandwidth,
  'costs.reduceBandwidth': bandwidth,
  'costs.missConcurrency': count,
  'costs.streamConcurrency': count,
  'costs.claimConcurrency': positiveNumber,
  'costs.kernelStores': oneOf(KERNEL_STORES),
  'costs.memcpyNonTemporalShare': positiveNumber,
  'costs.lineBytes': size,
  'kernel.mechanisms.*': flag,
  'kernel.syscallNs': duration,
  'kernel.pageBytes': size,
  'kernel.pinPerPageNs': duration,
  'kernel.cmaLockMode': oneOf(['exclusive', 'shared']),
  'kernel.params.*': nonNegativeNumber,
};

/**
 * Fields a machine file gives that the simulator does not read: they describe the machine. A sweep
 * of one would print the same row for every value, so it is refused with what to sweep instead.
 */
export const DESCRIPTIVE: Readonly<Record<string, string>> = {
  'cores.frequencyGHz':
    "the simulator does not read a core's frequency; it reads the rates the frequency sets: costs.copyBandwidth, costs.reduceBandwidth, caches.*.bandwidth and caches.*.latencyNs",
  'numaNodes.memoryBytes': 'the simulator does not read how much memory a NUMA node has (no run is limited by it)',
};

/** Maps whose entries are named by the user, not by the spec's shape: a `*` stands for each name. */
const NAMED_ENTRIES = new Set(['kernel.params', 'kernel.mechanisms']);

/**
 * Keys a parameter sweep may write although the machine leaves them out (optional fields, kernel
 * parameters that take their model's default), by the place of the object that would hold them.
 */
export function optionalKeys(place: string): string[] {
  if (place === 'kernel.params') return Object.keys(KERNEL_PARAMS);
  const prefix = `${place}.`;
  return Object.keys(PARAMETERS)
    .filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('.'))
    .map((p) => p.slice(prefix.length));
}

/** The place of a child: `links` + `bandwidth` is `links.bandwidth`; a named map's entry is `*`. */
export function childPlace(place: string, key: string | number): string {
  if (typeof key === 'number') return place;
  if (NAMED_ENTRIES.has(place)) return `${place}.*`;
  return place ? `${place}.${key}` : key;
}

/** The parameters under a place, for messages: "bandwidth, latencyNs". */
export function parametersUnder(place: string): string[] {
  const prefix = place ? `${place}.` : '';
  return Object.keys(PARAMETERS)
    .filter((p) => p.startsWith(prefix))
    .map((p) => p.slice(prefix.length));
}
