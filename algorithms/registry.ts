// Every operation and algorithm is registered by name ("bcast:knem-linear") so scenarios, the CLI
// and the property tests can enumerate them without knowing any algorithm's module.
import type { Program } from '../sim/engine/program.ts';
import { DEFAULT_REGCACHE_CAPACITY } from '../sim/kernel/kernel-costs.ts';
import { singleCopyThresholdBytes } from '../sim/kernel/shm/costs.ts';
import { SHM_PROTOCOLS, SINGLE_COPY } from '../sim/kernel/shm/packet.ts';

export type ParamValue = number | string | boolean;

export interface ParamInfo {
  name: string;
  kind: 'bytes' | 'integer' | 'number' | 'boolean' | 'choice';
  default: ParamValue;
  description: string;
  /** Smallest accepted value for numeric kinds (inclusive). */
  min?: number;
  choices?: string[];
}

export interface OperationInfo {
  name: string;
  description: string;
  /** Whether the operation has a root rank. */
  rooted: boolean;
  /** v-variants: one count per rank, or one per (sender, receiver) pair as alltoallv. */
  counts?: 'per-rank' | 'per-pair';
}

/**
 * What an algorithm's event program receives. `rank` is the rank API of sim/node; it is typed
 * loosely here so that the registry stays below the node layer in the import graph.
 */
export type AlgorithmProgram = (rank: any, args: any) => Program<void>;

export interface AlgorithmInfo {
  /** Full name, "<operation>:<algorithm>". */
  name: string;
  operation: string;
  /** One line for `intranode algorithms`. */
  description: string;
  params: ParamInfo[];
  program: AlgorithmProgram;
}

/**
 * Parameters every algorithm accepts: they configure the transports underneath rather than the
 * algorithm (sim/kernel/mechanisms.ts reads them), so any algorithm can be run over any of them.
 * Their defaults are the transports' own (sim/kernel/p2p.ts, shm/costs.ts, kernel-costs.ts), shown
 * here for `intranode algorithms`; a run that leaves one out gets the transport's default.
 */
export const transportParams: readonly ParamInfo[] = [
  { name: 'shm', kind: 'choice', default: 'nemesis', choices: [...SHM_PROTOCOLS], description: 'shared-memory double-copy protocol of point-to-point messages (MPICH2 Nemesis or Open MPI sm BTL)' },
  { name: 'single', kind: 'choice', default: 'none', choices: [...SINGLE_COPY], description: 'single-copy mechanism point-to-point uses for large messages' },
  { name: 'singleThreshold', kind: 'bytes', default: singleCopyThresholdBytes, min: 0, description: 'messages of at least this size use the single-copy mechanism (the seeds put the crossover near 16 KiB)' },
  { name: 'regcache', kind: 'boolean', default: true, description: 'XPMEM registration cache on or off' },
  { name: 'regcacheCapacity', kind: 'integer', default: DEFAULT_REGCACHE_CAPACITY, min: 1, description: 'XPMEM registration cache entries, all peers together, before FIFO eviction' },
];

/** The algorithm's name within its operation: "binomial" for "bcast:binomial". */
export function shortName(info: AlgorithmInfo): string {
  return info.name.slice(info.operation.length + 1);
}

/** Every parameter the algorithm declares, at its default. */
export function paramDefaults(info: AlgorithmInfo): Record<string, ParamValue> {
  return Object.fromEntries(info.params.map((p) => [p.name, p.default]));
}

/** An algorithm's own parameters followed by the transport parameters. */
export function acceptedParams(info: AlgorithmInfo): ParamInfo[] {
  return [...info.params, ...transportParams.filter((t) => !info.params.some((p) => p.name === t.name))];
}

const operations = new Map<string, OperationInfo>();
const algorithms = new Map<string, AlgorithmInfo>();

export function registerOperation(info: OperationInfo): void {
  if (operations.has(info.name)) throw new Error(`operation ${info.name} registered twice`);
  operations.set(info.name, info);
}

export function registerAlgorithm(info: AlgorithmInfo): void {
  if (!operations.has(info.operation)) throw new Error(`algorithm ${info.name}: unknown operation ${info.operation}`);
  if (!info.name.startsWith(`${info.operation}:`)) throw new Error(`algorithm ${info.name} must be named ${info.operation}:<name>`);
  if (algorithms.has(info.name)) throw new Error(`algorithm ${info.name} registered twice`);
  algorithms.set(info.name, info);
}

export function listOperations(): OperationInfo[] {
  return [...operations.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function findOperation(name: string): OperationInfo | undefined {
  return operations.get(name);
}

export function listAlgorithms(operation?: string): AlgorithmInfo[] {
  return [...algorithms.values()]
    .filter((a) => operation === undefined || a.operation === operation)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Accepts a full name ("bcast:binomial") or, with `operation`, a short one ("binomial"). */
export function findAlgorithm(name: string, operation?: string): AlgorithmInfo | undefined {
  return algorithms.get(name) ?? (operation ? algorithms.get(`${operation}:${name}`) : undefined);
}
