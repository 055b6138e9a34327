// Scenario YAML → validated Scenario. Anything wrong in the input becomes one InputError naming
// the file, line:column and field path; nothing else escapes (test/scenarios/robustness.test.ts).
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import type { Listing } from '../algorithms/listing.ts';
import { didYouMean, InputError } from '../hardware/input-error.ts';
import type { MachineSpec } from '../hardware/spec.ts';
import { readAlgorithms } from './algorithm-entries.ts';
import { placeRanks, PlacementError } from './placement.ts';
import { rankCount, type MachineChoice, type PlacementSpec, type RankCount, type Scenario } from './scenario.ts';
import { normaliseSizes, parseSizeSpec, SizeError } from './sizes.ts';
import { parseYaml, type Field } from './yaml-field.ts';

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
  /** `--seed`: replaces the scenario's seed. */
  seedOverride?: string;
  cwd?: string;
}

export const SCENARIO_KEYS = [
  'name', 'description', 'machine', 'ranks', 'placement', 'operation', 'algorithms', 'sizes',
  'root', 'counts', 'cache', 'iterations', 'warmup', 'seed', 'baseline', 'sweep',
] as const;
const SWEEP_KEYS = ['ranks', 'machine', 'placement'] as const;

export const DEFAULTS = { root: 0, cache: 'off', iterations: 5, warmup: 1, seed: 'intranode', placement: 'compact' } as const;

export function loadScenarioFile(path: string, opts: Omit<LoadOptions, 'file'>): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? 'no such scenario file' : `cannot read scenario file (${code ?? (e as Error).message})`, { file: path });
  }
  return loadScenarioText(text, { ...opts, file: path });
}

export function loadScenarioText(text: string, opts: LoadOptions): Scenario {
  const root = parseYaml(text, opts.file);
  if (!root.present) {
    throw root.error('the scenario is empty; expected a mapping with operation, algorithms, sizes, machine and ranks');
  }
  const f = root.entries('the scenario', SCENARIO_KEYS);
  const get = (key: string): Field | undefined => (f.get(key)?.present ? f.get(key) : undefined);
  const required = (key: string): Field => {
    const field = get(key);
    if (!field) throw root.error(`the scenario needs '${key}'`);
    return field;
  };

  const name = get('name')?.text('name') ?? (opts.file ? basename(opts.file, extname(opts.file)) : 'scenario');
  const description = get('description')?.text('description') ?? '';

  const opField = required('operation');
  const operation = opField.string('operation');
  const opInfo = opts.catalogue.findOperation(operation);
  if (!opInfo) {
    const known = opts.catalogue.listOperations().map((o) => o.name);
    const hint = didYouMean(operation, known);
    throw opField.error(
      `unknown operation '${operation}'${hint ? ` (did you mean '${hint}'?)` : ''}; ${known.length ? `operations: ${known.join(', ')}` : 'no operation is registered'}`,
    );
  }
  const algorithms = readAlgorithms(required('algorithms'), operation, opts.catalogue);
  const sizes = readSizes(required('sizes'));

  const rootField = get('root');
  if (rootField && !opInfo.rooted) throw rootField.error(`operation '${operation}' has no root`);
  const rootRank = rootField?.integer('root', 0) ?? DEFAULTS.root;
  const countsField = get('counts');
  if (countsField && !opInfo.counts) {
    const vOps = opts.catalogue.listOperations().filter((o) => o.counts).map((o) => o.name);
    throw countsField.error(`operation '${operation}' takes no counts; counts are for ${vOps.join(', ')}`);
  }
  const counts = countsField?.items('counts').map((item) => item.integer('count', 0));
  const cache = readCache(get('cache'));
  const iterations = get('iterations')?.integer('iterations', 1) ?? DEFAULTS.iterations;
  const warmup = get('warmup')?.integer('warmup', 0) ?? DEFAULTS.warmup;
  const seed = opts.seedOverride ?? get('seed')?.text('seed') ?? DEFAULTS.seed;

  const baselineField = get('baseline');
  const labels = algorithms.map((a) => a.label);
  let baseline = labels[0];
  if (baselineField) {
    const wanted = baselineField.text('baseline');
    const match = algorithms.find((a) => a.label === wanted) ?? algorithms.find((a) => a.name === wanted || a.name === `${operation}:${wanted}`);
    if (!match) {
      const hint = didYouMean(wanted, labels);
      throw baselineField.error(`baseline '${wanted}' is not one of the algorithms${hint ? ` (did you mean '${hint}'?)` : ''}; labels: ${labels.join(', ')}`);
    }
    baseline = match.label;
  }

  const sweep = get('sweep')?.entries('sweep', SWEEP_KEYS) ?? new Map<string, Field>();
  const axis = (key: string): Field[] | undefined => {
    const swept = sweep.get(key);
    if (!swept?.present) return undefined;
    if (get(key)) throw get(key)!.error(`'${key}' is given both here and under sweep; keep one`);
    const items = swept.items(`sweep.${key}`);
    if (items.length === 0) throw swept.error(`sweep.${key} must list at least one value`);
    return items;
  };

  const baseDir = opts.file ? dirname(resolve(opts.cwd ?? process.cwd(), opts.file)) : (opts.cwd ?? process.cwd());
  const machines = readMachines(opts, axis('machine') ?? (get('machine') ? [get('machine')!] : undefined), root, baseDir);

  const placementFields = axis('placement') ?? (get('placement') ? [get('placement')!] : undefined);
  const placements: { value: PlacementSpec; field?: Field }[] = placementFields
    ? placementFields.map((field) => ({ value: readPlacement(field), field }))
    : [{ value: DEFAULTS.placement }];

  const rankFields = axis('ranks') ?? (get('ranks') ? [get('ranks')!] : undefined);
  let ranks: { value: RankCount; field?: Field }[];
  if (rankFields) {
    ranks = rankFields.map((field) => ({ value: readRanks(field), field }));
  } else {
    const lengths = new Set(placements.map((p) => (typeof p.value === 'string' ? -1 : p.value.length)));
    const only = [...lengths][0];
    if (lengths.size !== 1 || only < 1) throw root.error("the scenario needs 'ranks' (it may be left out only when placement is a core list)");
    ranks = [{ value: only }];
  }

  for (const m of machines) {
    for (const r of ranks) {
      const n = rankCount(r.value, m.choice.spec);
      if (rootRank >= n) {
        throw (rootField ?? r.field ?? root).error(`root ${rootRank} is outside the communicator of ${n} ranks (0..${n - 1})`);
      }
      if (counts && countsField) {
        const wanted = opInfo.counts === 'per-pair' ? n * n : n;
        if (counts.length !== wanted) {
          const what = opInfo.counts === 'per-pair' ? `${n} x ${n} = ${wanted} (one per sender and receiver, sender-major)` : `${wanted} (one per rank)`;
          throw countsField.error(`counts has ${counts.length} entries, but ${operation} on ${n} ranks needs ${what}`);
        }
      }
      for (const p of placements) checkPlacement(m, p, r, root, machines.length > 1);
    }
  }

  return {
    name,
    description,
    file: opts.file,
    operation,
    rooted: opInfo.rooted,
    algorithms,
    sizes,
    root: rootRank,
    ...(counts ? { counts } : {}),
    cache,
    iterations,
    warmup,
    seed,
    baseline,
    machines: machines.map((m) => m.choice),
    placements: placements.map((p) => p.value),
    ranks: ranks.map((r) => r.value),
  };
}

function readSizes(field: Field): number[] {
  const entries = field.kind() === 'seq' ? field.items('sizes') : [field];
  if (entries.length === 0) throw field.error('sizes must list at least one size');
  const sizes: number[] = [];
  for (const entry of entries) {
    const v = entry.scalar();
    if (typeof v !== 'string' && typeof v !== 'number') {
      throw entry.error(`a size must be a number of bytes, a size such as 64KiB, or a range such as 16KiB..16MiB x2; got ${entry.describe()}`);
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

function readRanks(field: Field): RankCount {
  const v = field.scalar();
  if (v === 'all') return 'all';
  if (typeof v === 'string') throw field.error(`ranks must be an integer or 'all', got ${field.describe()}`);
  return field.integer('ranks', 1);
}

function readCache(field: Field | undefined): 'on' | 'off' {
  if (!field) return DEFAULTS.cache;
  const v = field.scalar();
  if (v === 'on' || v === true) return 'on';
  if (v === 'off' || v === false) return 'off';
  throw field.error(`cache must be 'on' or 'off', got ${field.describe()}`);
}

function readPlacement(field: Field): PlacementSpec {
  if (field.kind() === 'seq') {
    const cores = field.items('placement').map((item) => item.integer('a core index', 0));
    if (cores.length === 0) throw field.error('the core list is empty');
    return cores;
  }
  const v = field.scalar();
  if (v === 'compact' || v === 'scatter') return v;
  const hint = typeof v === 'string' ? didYouMean(v, ['compact', 'scatter']) : undefined;
  throw field.error(`placement must be compact, scatter or a list of cores such as [0, 4, 8], got ${field.describe()}${hint ? ` (did you mean '${hint}'?)` : ''}`);
}

interface LocatedMachine {
  choice: MachineChoice;
  field?: Field;
}

function readMachines(opts: LoadOptions, fields: Field[] | undefined, root: Field, baseDir: string): LocatedMachine[] {
  if (opts.machineOverride !== undefined) {
    const ref = opts.machineOverride;
    const spec = resolveWith(opts, ref, opts.cwd ?? process.cwd(), (detail) => new InputError(detail, { field: '--machine' }));
    return [{ choice: { ref, spec } }];
  }
  if (!fields) throw root.error("the scenario needs 'machine' (a preset name, a machine file or an hwloc XML file)");
  return fields.map((field) => {
    const ref = field.string('machine');
    return { choice: { ref, spec: resolveWith(opts, ref, baseDir, (detail) => field.error(detail)) }, field };
  });
}

function resolveWith(opts: LoadOptions, ref: string, baseDir: string, fail: (detail: string) => InputError): MachineSpec {
  try {
    return opts.resolveMachine(ref, baseDir);
  } catch (e) {
    // The resolver knows the machine file but not where the scenario names it; say both.
    const message = e instanceof Error ? e.message : String(e);
    throw fail(`machine '${ref}': ${message}`);
  }
}

function checkPlacement(
  m: LocatedMachine,
  p: { value: PlacementSpec; field?: Field },
  r: { value: RankCount; field?: Field },
  root: Field,
  several: boolean,
): void {
  try {
    placeRanks(m.choice.spec, rankCount(r.value, m.choice.spec), p.value);
  } catch (e) {
    if (!(e instanceof PlacementError)) throw e;
    const where =
      e.index !== undefined && p.field ? p.field.items('placement')[e.index] : typeof p.value === 'string' ? r.field : p.field;
    throw (where ?? m.field ?? root).error(several ? `on machine '${m.choice.ref}': ${e.message}` : e.message);
  }
}
