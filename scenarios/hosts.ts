// `hosts:` in a scenario: run on several hosts of the machine, joined by their NICs. Ranks on
// different hosts talk through the NICs (sim/kernel/net/), so only algorithms that send through
// the rank's point-to-point may span hosts; every other misuse is an error at its field.
import { didYouMean } from '../common/input-error.ts';
import type { YamlValue } from '../common/yaml/value.ts';
import { clusterOf } from '../hardware/cluster.ts';
import { NIC_MODEL_NAMES } from '../hardware/nic-models.ts';
import type { MachineSpec } from '../hardware/spec.ts';
import { DurationError, parseDuration } from './duration.ts';
import type { ScenarioAlgorithm } from './scenario.ts';

const HOSTS_KEYS = ['count', 'wire', 'nics'] as const;
const WIRE_KEYS = ['latency'] as const;
/** Operations whose programs reach other ranks only through the rank's point-to-point. */
export const HOSTS_OPERATIONS = ['pingpong', 'pingping', 'onetoall', 'alltoallpairs'] as const;
/** Of those, the algorithms that send through the rank's point-to-point (not a single-copy mechanism). */
const OVER_POINT_TO_POINT = /:(shm|auto)$/;

export interface HostsRequest {
  count: number;
  wireLatencyNs: number;
  /** NIC id → model name, with the field that named it. */
  nics: Map<string, { model: string; field: YamlValue }>;
  field: YamlValue;
}

/** Most hosts a scenario may ask for. Every host is a whole copy of the machine's model (its cores,
 *  caches, memories, links and NICs), so ten thousand exhaust the memory of a run; a count past
 *  this is far more likely a typo than a cluster one node's simulator is meant for. */
export const MAX_HOSTS = 1024;

function hostCount(field: YamlValue, what: string): number {
  const n = field.integer(1, what);
  if (n > MAX_HOSTS) field.fail(`${what} must be at most ${MAX_HOSTS}, got ${n}`);
  return n;
}

/** `hosts: 2` or `hosts: { count: 2, wire: { latency: 100ns }, nics: { ib0: myri-10g } }`. */
export function readHosts(
  field: YamlValue | undefined,
  operation: string,
  algorithms: readonly ScenarioAlgorithm[],
  algorithmsField: YamlValue,
): HostsRequest | undefined {
  const request: HostsRequest | undefined = !field
    ? undefined
    : field.kind() === 'map'
      ? readMapping(field)
      : { count: hostCount(field, 'hosts'), wireLatencyNs: 0, nics: new Map(), field };
  const entries = algorithmsField.items('algorithms');
  entries.forEach((entry) => checkRailParams(entry, request?.count ?? 1));
  if (!request || !field || request.count === 1) return request;
  if (!(HOSTS_OPERATIONS as readonly string[]).includes(operation)) {
    throw field.error(
      `operation '${operation}' cannot run on several hosts; hosts work with ${HOSTS_OPERATIONS.join(', ')}`,
    );
  }
  algorithms.forEach((a, i) => {
    if (!OVER_POINT_TO_POINT.test(a.name)) {
      const what = `${a.name} cannot run on several hosts`;
      throw entries[i].error(
        `${what}: only the algorithms over the rank's point-to-point (':shm', ':auto') reach other hosts through the NICs`,
      );
    }
  });
  return request;
}

/**
 * The rail parameters split messages between hosts: on one host they would change nothing, and
 * `railShare` is read only with `rails: share`; either way the user's value would be dropped.
 */
function checkRailParams(entry: YamlValue, hosts: number): void {
  if (entry.kind() !== 'map') return;
  const params = entry.entries().get('params');
  if (!params || params.kind() !== 'map') return;
  const given = params.entries();
  for (const name of ['rails', 'railShare']) {
    const value = given.get(name);
    if (value && hosts < 2) {
      throw value.error(`${name} splits messages between hosts, and this scenario runs on one host (see 'hosts')`);
    }
  }
  const share = given.get('railShare');
  const rails = given.get('rails');
  if (share && (!rails || rails.scalar() !== 'share')) {
    throw share.error(
      `railShare is read only with rails: share, got rails: ${rails ? rails.describe() : 'throughput (the default)'}`,
    );
  }
}

function readMapping(field: YamlValue): HostsRequest {
  const m = field.map(HOSTS_KEYS, 'hosts');
  const count = hostCount(m.req('count'), 'hosts.count');
  let wireLatencyNs = 0;
  const wire = m.get('wire');
  if (wire) {
    const latency = wire.map(WIRE_KEYS, 'hosts.wire').get('latency');
    if (latency) wireLatencyNs = readLatency(latency);
  }
  const nics = new Map<string, { model: string; field: YamlValue }>();
  for (const [id, value] of m.get('nics')?.entries('hosts.nics') ?? []) {
    const model = value.string('NIC model');
    if (!NIC_MODEL_NAMES.includes(model)) {
      const hint = didYouMean(model, NIC_MODEL_NAMES);
      throw value.error(
        `unknown NIC model '${model}'${hint ? ` (did you mean '${hint}'?)` : ''}; models: ${NIC_MODEL_NAMES.join(', ')}`,
      );
    }
    nics.set(id, { model, field: value });
  }
  return { count, wireLatencyNs, nics, field };
}

function readLatency(field: YamlValue): number {
  const v = field.scalar();
  if (typeof v !== 'string' && typeof v !== 'number')
    throw field.error(`the wire's latency must be a duration such as 100ns, got ${field.describe()}`);
  try {
    return parseDuration(v);
  } catch (e) {
    if (e instanceof DurationError) throw field.error(`hosts.wire.latency: ${e.message}`);
    throw e;
  }
}

/** The machine as `request.count` hosts; errors name the hosts field or the NIC entry at fault. */
export function machineOnHosts(spec: MachineSpec, request: HostsRequest, machineRef: string): MachineSpec {
  for (const [id, { field }] of request.nics) {
    if (!spec.nics.some((n) => n.id === id)) {
      const ids = spec.nics.map((n) => n.id);
      const hint = didYouMean(id, ids);
      throw field.error(
        `machine '${machineRef}' has no NIC '${id}'${hint ? ` (did you mean '${hint}'?)` : ''}; NICs: ${ids.join(', ') || 'none'}`,
      );
    }
  }
  const plugged = Object.fromEntries([...request.nics].map(([id, { model }]) => [id, model]));
  // One host sends nothing over a wire: it needs neither NICs nor their latencies.
  const wired = request.count > 1;
  if (wired && spec.nics.length === 0)
    throw request.field.error(`machine '${machineRef}' has no NIC, so its hosts cannot reach each other`);
  const withoutLatency = wired
    ? spec.nics.find((n) => plugged[n.id] === undefined && n.latencyNs === undefined)
    : undefined;
  if (withoutLatency) {
    throw request.field.error(
      `NIC '${withoutLatency.id}' of machine '${machineRef}' has no latency: give it 'latency' in the machine file or plug a model in its slot (hosts.nics)`,
    );
  }
  try {
    return clusterOf(spec, { hosts: request.count, nics: plugged, wireLatencyNs: request.wireLatencyNs });
  } catch (e) {
    throw request.field.error(`machine '${machineRef}': ${e instanceof Error ? e.message : String(e)}`);
  }
}
