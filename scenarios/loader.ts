// Scenario YAML → validated Scenario. Anything wrong in the input becomes one InputError naming
// the file, line:column and field path; nothing else escapes (test/scenarios/robustness.test.ts).
import type { Listing } from '../algorithms/listing.ts';
import type { OperationInfo } from '../algorithms/operations.ts';
import { didYouMean, InputError } from '../common/input-error.ts';
import { dirName, fileStem, resolvePath, workingDir } from '../common/paths.ts';
import { onOneLine } from '../common/printable.ts';
import type { MachineSpec } from '../hardware/spec.ts';
import { readAlgorithms } from './algorithm-entries.ts';
import { checkPlacement, checkSmt, readPlacement, readSmt } from './placement-fields.ts';
import { machineOnHosts, readHosts, type HostsRequest } from './hosts.ts';
import {
  rankCount,
  type BufferMode,
  type MachineChoice,
  type PlacedOn,
  type PlacementSpec,
  type RankCount,
  type RootChoice,
  type Scenario,
  type ScenarioAlgorithm,
} from './scenario.ts';
import { readParameterAxes, variantsOf, type ParameterAxis } from './machine-parameters.ts';
import { DurationError, parseDuration } from './duration.ts';
import { normaliseSizes, parseSizeSpec, SizeError } from './sizes.ts';
import { parseYaml } from '../common/yaml/parse.ts';
import { ScenarioDocument } from './scenario-document.ts';
import { readRailShareSweep } from './rail-share-sweep.ts';
import type { YamlValue } from '../common/yaml/value.ts';

/** Finds a machine by preset name or file path (relative paths against `baseDir`). */
export type MachineResolver = (ref: string, baseDir: string) => MachineSpec;

export interface LoadOptions {
  /** Path shown in errors; machine paths in the scenario are relative to its folder. */
  file?: string;
  resolveMachine: MachineResolver;
  /** The operations and algorithms a scenario may name (algorithms/catalogue.ts, or a test's own). */
  catalogue: Listing;
  /** `--machine`: replaces the scenario's machine and any machine sweep; relative to `cwd`. */
  machineOverride?: string;
  /** `--seed`: replaces the scenario's seed and any seed sweep. */
  seedOverride?: string;
  cwd?: string;
}

export const DEFAULTS = {
  root: 0,
  cache: 'off',
  iterations: 5,
  warmup: 1,
  seed: 'intranode',
  placement: 'compact',
  buffers: 'reused',
} as const;

export { SCENARIO_KEYS } from './scenario-document.ts';

/** Most iterations a point may ask for, and most warm-up iterations: the harness keeps every
 *  measured call's time, and a count past this is far more likely a typo (extra zeros) than a
 *  benchmark; it is a thousand times IMB's default of 1000 repetitions. */
export const MAX_CALLS = 1_000_000;

/**
 * Reads the fields in a fixed order (the first mistake found is the one reported), then checks
 * what depends on the machine and rank count. A new field is one key in SCENARIO_KEYS, one entry in
 * Scenario, and one line below reading it (with a read function beside the others when it needs one).
 */
export function loadScenarioText(text: string, opts: LoadOptions): Scenario {
  const doc = new ScenarioDocument(parseYaml(text, opts.file));
  const name = doc.get('name')?.printable('name') ?? (opts.file ? onOneLine(fileStem(opts.file)) : 'scenario');
  const description = doc.get('description')?.printable('description', { lines: true }) ?? '';
  const { operation, info } = readOperation(doc.required('operation'), opts.catalogue);
  const algorithmsField = doc.required('algorithms');
  const algorithms = readAlgorithms(algorithmsField, operation, opts.catalogue);
  const sizes = info.sizeless ? readNoSizes(doc.get('sizes'), operation) : readSizes(doc.required('sizes'));
  const roots = readRoots(doc.values('root'), operation, info);
  const countsField = doc.get('counts');
  const counts = countsField && readCounts(countsField, operation, info, opts.catalogue);
  const cache = readCache(doc.get('cache'));
  const buffers = readBuffers(doc.get('buffers'));
  const iterations = readCalls(doc.get('iterations'), 1, 'iterations') ?? DEFAULTS.iterations;
  const warmup = readCalls(doc.get('warmup'), 0, 'warmup') ?? DEFAULTS.warmup;
  const seedFields = doc.values('seed')?.map((field) => ({ value: field.text('seed'), field }));
  if (seedFields) noRepeats(seedFields, 'seed');
  const seeds =
    opts.seedOverride !== undefined ? [opts.seedOverride] : (seedFields?.map((s) => s.value) ?? [DEFAULTS.seed]);
  const skewNs = readSkew(doc.get('skew'));
  const baseline = readBaseline(doc.get('baseline'), algorithms, operation);

  const baseDir = opts.file ? dirName(resolvePath(opts.cwd ?? workingDir(), opts.file)) : (opts.cwd ?? workingDir());
  const hosts = readHosts(doc.get('hosts'), operation, algorithms, algorithmsField);
  const railShares = readRailShareSweep(doc, algorithms, algorithmsField, hosts);
  const smtField = doc.get('smt');
  const smt = readSmt(smtField);
  const parameterAxes = readParameterAxes(doc.machineParameters());
  const axes = onHosts(withParameters(readAxes(doc, opts, baseDir), parameterAxes), hosts);
  if (smt) checkSmt(axes, smtField!);
  // Open MPI's two-process algorithms are defined for one communicator size only.
  const fixedRanks = algorithms.flatMap((a) => {
    const ranks = opts.catalogue.findAlgorithm(a.name, operation)?.ranks;
    return ranks === undefined ? [] : [{ label: a.label, ranks }];
  });
  checkCombinations(doc, axes, { roots, counts, countsField, operation, info, smt, fixedRanks, algorithmsField });
  // The report says which machine ran when it is not the one the file names.
  const replacedMachines =
    opts.machineOverride !== undefined ? (doc.values('machine') ?? []).map((m) => m.string('machine')) : undefined;

  return {
    name,
    description,
    file: opts.file,
    operation,
    rooted: info.rooted,
    ...(info.counts ? { countsKind: info.counts } : {}),
    algorithms,
    sizes,
    root: roots[0].value,
    ...(roots.length > 1 ? { rootSweep: roots.map((r) => r.value) } : {}),
    ...(counts ? { counts } : {}),
    cache,
    buffers,
    iterations,
    warmup,
    seed: seeds[0],
    ...(seeds.length > 1 ? { seedSweep: seeds } : {}),
    ...(railShares ? { railShareSweep: railShares } : {}),
    ...(skewNs ? { skewNs } : {}),
    baseline,
    machines: axes.machines.map((m) => m.choice),
    ...(parameterAxes.length ? { machineParameters: parameterAxes.map((a) => a.path) } : {}),
    ...(replacedMachines ? { replacedMachines } : {}),
    placements: axes.placements.map((p) => p.value),
    smt,
    ranks: axes.ranks.map((r) => r.value),
  };
}

function readOperation(field: YamlValue, catalogue: Listing): { operation: string; info: OperationInfo } {
  const operation = field.string('operation');
  const info = catalogue.findOperation(operation);
  if (!info) {
    const known = catalogue.listOperations().map((o) => o.name);
    const hint = didYouMean(operation, known);
    throw field.error(
      `unknown operation '${operation}'${hint ? ` (did you mean '${hint}'?)` : ''}; ${known.length ? `operations: ${known.join(', ')}` : 'no operation is registered'}`,
    );
  }
  return { operation, info };
}

function readCounts(field: YamlValue, operation: string, info: OperationInfo, catalogue: Listing): number[] {
  if (!info.counts) {
    const vOps = catalogue
      .listOperations()
      .filter((o) => o.counts)
      .map((o) => o.name);
    throw field.error(`operation '${operation}' takes no counts; counts are for ${vOps.join(', ')}`);
  }
  return field.items('counts').map((item) => item.integer(0, 'count'));
}

function readBaseline(field: YamlValue | undefined, algorithms: ScenarioAlgorithm[], operation: string): string {
  const labels = algorithms.map((a) => a.label);
  if (!field) return labels[0];
  const wanted = field.text('baseline');
  const byName = algorithms.filter((a) => a.name === wanted || a.name === `${operation}:${wanted}`);
  const match = algorithms.find((a) => a.label === wanted) ?? (byName.length === 1 ? byName[0] : undefined);
  if (!match && byName.length > 1) {
    throw field.error(
      `baseline '${wanted}' names ${byName.length} algorithms (${byName.map((a) => a.label).join(', ')}): give one's label`,
    );
  }
  if (!match) {
    const hint = didYouMean(wanted, labels);
    throw field.error(
      `baseline '${wanted}' is not one of the algorithms${hint ? ` (did you mean '${hint}'?)` : ''}; labels: ${labels.join(', ')}`,
    );
  }
  return match.label;
}

/** The swept (or fixed) machines, placements and rank counts, each with the field it came from. */
interface Axes {
  machines: LocatedMachine[];
  placements: { value: PlacementSpec; field?: YamlValue }[];
  ranks: { value: RankCount; field?: YamlValue }[];
}

/** Every machine of the sweep as its variants, one per combination of the machine parameters' values. */
function withParameters(axes: Axes, parameterAxes: ParameterAxis[]): Axes {
  if (parameterAxes.length === 0) return axes;
  const machines = axes.machines.flatMap((m) =>
    variantsOf(m.choice.spec, parameterAxes, m.choice.ref).map((v) => ({
      ...m,
      choice: { ...m.choice, spec: v.spec, parameters: v.parameters },
    })),
  );
  return { ...axes, machines };
}

/** Every machine of the sweep as the scenario's hosts of it. */
function onHosts(axes: Axes, hosts: HostsRequest | undefined): Axes {
  if (!hosts) return axes;
  const machines = axes.machines.map((m) => ({
    ...m,
    choice: { ...m.choice, spec: machineOnHosts(m.choice.spec, hosts, m.choice.ref) },
  }));
  return { ...axes, machines };
}

function readAxes(doc: ScenarioDocument, opts: LoadOptions, baseDir: string): Axes {
  const machines = readMachines(opts, doc.values('machine'), doc.root, baseDir);
  noRepeats(
    machines.map((m) => ({ value: m.choice.ref, field: m.field })),
    'machine',
  );
  const placementFields = doc.values('placement');
  const placements = placementFields
    ? placementFields.map((field) => ({ value: readPlacement(field), field }))
    : [{ value: DEFAULTS.placement }];
  noRepeats(placements, 'placement', showPlacement);
  const rankFields = doc.values('ranks');
  if (rankFields) {
    const ranks = rankFields.map((field) => ({ value: readRanks(field), field }));
    noRepeats(ranks, 'ranks');
    return { machines, placements, ranks };
  }
  const lengths = new Set(placements.map((p) => (typeof p.value === 'string' ? -1 : p.value.length)));
  const only = [...lengths][0];
  if (lengths.size !== 1 || only < 1)
    throw doc.root.error("the scenario needs 'ranks' (it may be left out only when placement is a core list)");
  return { machines, placements, ranks: [{ value: only }] };
}

interface RankChecks {
  roots: LocatedRoot[];
  counts: number[] | undefined;
  countsField: YamlValue | undefined;
  operation: string;
  info: OperationInfo;
  smt: boolean;
  fixedRanks: { label: string; ranks: number }[];
  algorithmsField: YamlValue;
}

/** What depends on the communicator size holds for every machine and rank count of the sweep. */
function checkCombinations(doc: ScenarioDocument, axes: Axes, c: RankChecks): void {
  for (const m of axes.machines) {
    for (const r of axes.ranks) {
      const n = rankCount(r.value, m.choice.spec, c.smt);
      if (c.info.minRanks !== undefined && n < c.info.minRanks)
        throw (r.field ?? doc.root).error(`${c.operation} needs at least ${c.info.minRanks} ranks, got ${n}`);
      for (const fixed of c.fixedRanks)
        if (fixed.ranks !== n)
          throw c.algorithmsField.error(
            `${fixed.label} is defined for ${fixed.ranks} ranks only, and this scenario runs ${n}: give ranks: ${fixed.ranks}, or another algorithm`,
          );
      for (const root of c.roots) {
        if (root.value !== 'all' && root.value >= n) {
          throw (root.field ?? r.field ?? doc.root).error(
            `root ${root.value} is outside the communicator of ${n} ranks (0..${n - 1})`,
          );
        }
      }
      if (c.counts && c.countsField) {
        const wanted = c.info.counts === 'per-pair' ? n * n : n;
        if (c.counts.length !== wanted) {
          const what =
            c.info.counts === 'per-pair'
              ? `${n} x ${n} = ${wanted} (one per sender and receiver, sender-major)`
              : `${wanted} (one per rank)`;
          throw c.countsField.error(
            `counts has ${c.counts.length} entries, but ${c.operation} on ${n} ranks needs ${what}`,
          );
        }
      }
      for (const p of axes.placements) checkPlacement(m, p, r, doc.root, axes.machines.length > 1, c.smt);
    }
  }
}

interface LocatedRoot {
  value: RootChoice;
  field?: YamlValue;
}

/** `root` (or `sweep.root`): rank numbers, or 'all' for every root in turn. */
function readRoots(fields: YamlValue[] | undefined, operation: string, info: OperationInfo): LocatedRoot[] {
  if (!fields) return [{ value: DEFAULTS.root }];
  if (!info.rooted) throw fields[0].error(`operation '${operation}' has no root`);
  const roots = fields.map((field): LocatedRoot => {
    const v = field.scalar();
    if (v === 'all') return { value: 'all', field };
    if (typeof v === 'string') {
      const hint = didYouMean(v, ['all']);
      throw field.error(
        `root must be a rank number or 'all', got ${field.describe()}${hint ? ` (did you mean 'all'?)` : ''}`,
      );
    }
    return { value: field.integer(0, 'root'), field };
  });
  noRepeats(roots, 'root');
  return roots;
}

/** An operation that moves no data runs once per point, at size 0: other sizes would repeat its row. */
function readNoSizes(field: YamlValue | undefined, operation: string): number[] {
  if (field && readSizes(field).some((b) => b !== 0))
    throw field.error(`operation '${operation}' moves no data: give sizes: 0, or no sizes`);
  return [0];
}

function readSizes(field: YamlValue): number[] {
  const entries = field.kind() === 'seq' ? field.items('sizes') : [field];
  if (entries.length === 0) throw field.error('sizes must list at least one size');
  const sizes: number[] = [];
  for (const entry of entries) {
    const v = entry.scalar();
    if (typeof v !== 'string' && typeof v !== 'number') {
      throw entry.error(
        `a size must be a number of bytes, a size such as 64KiB, or a range such as 16KiB..16MiB x2; got ${entry.describe()}`,
      );
    }
    try {
      sizes.push(...parseSizeSpec(v));
    } catch (e) {
      if (e instanceof SizeError) throw entry.error(e.message);
      throw e;
    }
  }
  return normaliseSizes(sizes);
}

function readRanks(field: YamlValue): RankCount {
  const v = field.scalar();
  if (v === 'all') return 'all';
  if (typeof v === 'string') throw field.error(`ranks must be an integer or 'all', got ${field.describe()}`);
  return field.integer(1, 'ranks');
}

function readCache(field: YamlValue | undefined): 'on' | 'off' {
  if (!field) return DEFAULTS.cache;
  const v = field.scalar();
  if (v === 'on' || v === true) return 'on';
  if (v === 'off' || v === false) return 'off';
  throw field.error(`cache must be 'on' or 'off', got ${field.describe()}`);
}

function readBuffers(field: YamlValue | undefined): BufferMode {
  if (!field) return DEFAULTS.buffers;
  const v = field.scalar();
  if (v === 'reused' || v === 'fresh') return v;
  const hint = typeof v === 'string' ? didYouMean(v, ['reused', 'fresh']) : undefined;
  throw field.error(
    `buffers must be 'reused' or 'fresh', got ${field.describe()}${hint ? ` (did you mean '${hint}'?)` : ''}`,
  );
}

function readSkew(field: YamlValue | undefined): number {
  if (!field) return 0;
  const v = field.scalar();
  if (typeof v !== 'string' && typeof v !== 'number')
    throw field.error(`skew must be a duration such as 2us, got ${field.describe()}`);
  try {
    return parseDuration(v);
  } catch (e) {
    if (e instanceof DurationError) throw field.error(`skew: ${e.message}`);
    throw e;
  }
}

export interface LocatedMachine {
  choice: MachineChoice;
  field?: YamlValue;
}

function readMachines(
  opts: LoadOptions,
  fields: YamlValue[] | undefined,
  root: YamlValue,
  baseDir: string,
): LocatedMachine[] {
  if (opts.machineOverride !== undefined) {
    const ref = opts.machineOverride;
    const spec = resolveWith(
      opts,
      ref,
      opts.cwd ?? workingDir(),
      (detail) => new InputError(detail, { field: '--machine' }),
    );
    return [{ choice: { ref, spec } }];
  }
  if (!fields) throw root.error("the scenario needs 'machine' (a preset name, a machine file or an hwloc XML file)");
  return fields.map((field) => {
    const ref = field.string('machine');
    return { choice: { ref, spec: resolveWith(opts, ref, baseDir, (detail) => field.error(detail)) }, field };
  });
}

function resolveWith(
  opts: LoadOptions,
  ref: string,
  baseDir: string,
  fail: (detail: string) => InputError,
): MachineSpec {
  try {
    return opts.resolveMachine(ref, baseDir);
  } catch (e) {
    // The resolver knows the machine file but not where the scenario names it; say both.
    const message = e instanceof Error ? e.message : String(e);
    throw fail(`machine '${ref}': ${message}`);
  }
}

function readCalls(field: YamlValue | undefined, min: number, what: string): number | undefined {
  if (field === undefined) return undefined;
  const n = field.integer(min, what);
  if (n > MAX_CALLS) field.fail(`${what} must be at most ${MAX_CALLS.toLocaleString('en-US')}, got ${n}`);
  return n;
}

/** A sweep value written twice would run and print the same points twice: the second is refused,
 *  at its own line. `show` gives the value as the message names it and as repeats are compared. */
function noRepeats<T>(
  items: readonly { value: T; field?: YamlValue }[],
  what: string,
  show: (v: T) => string = String,
): void {
  const seen = new Set<string>();
  for (const item of items) {
    const shown = show(item.value);
    if (seen.has(shown) && item.field) throw item.field.error(`${what} ${shown} is listed twice`);
    seen.add(shown);
  }
}

function showPlacement(p: PlacementSpec): string {
  if (typeof p === 'string') return p;
  // A plain number is the core's thread 0, so the two spellings of one placement compare equal.
  const one = (t: PlacedOn): string =>
    typeof t === 'number' ? String(t) : t.thread === 0 ? String(t.core) : `${t.core}.${t.thread}`;
  return `[${p.map(one).join(', ')}]`;
}
