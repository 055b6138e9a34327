// Claims YAML → PaperClaims. Every mistake is one InputError naming the claims file, the line and
// the field path (claims[3].measure.over), as for scenario files.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type {
  Claim,
  ClaimLocation,
  Measure,
  MeasureKind,
  PaperClaims,
  Published,
  SizeChoice,
  SizeSpan,
  Tolerance,
} from './claim.ts';
import { didYouMean, parseSize, parseYaml, readInputFile, SizeError, type YamlValue } from './scenario-adapter.ts';
import { parseMissing } from './missing-figures.ts';
import { parseSpan } from './size-span.ts';

const FILE_KEYS = ['seed', 'title', 'claims'] as const;
const CLAIM_KEYS = [
  'id',
  'source',
  'statement',
  'scenario',
  'machine',
  'ranks',
  'measure',
  'published',
  'tolerance',
  'input',
  'expect',
  'fast',
  'missing',
] as const;

/** Keys each measure kind takes besides `kind`; the first group is required. */
const MEASURE_KEYS: Record<MeasureKind, { required: string[]; optional: string[] }> = {
  ratio: { required: ['of', 'to'], optional: ['at', 'over', 'reduce'] },
  'ratio-range': { required: ['of', 'to', 'over'], optional: [] },
  ordering: { required: ['faster', 'than', 'over'], optional: [] },
  crossover: { required: ['winner', 'loser', 'over'], optional: [] },
  'best-param': { required: ['among'], optional: ['at', 'over'] },
  spread: { required: ['among', 'over'], optional: [] },
  share: { required: ['of', 'category'], optional: ['at', 'over', 'reduce'] },
  growth: { required: ['of'], optional: ['at', 'over', 'quantity'] },
  memory: { required: ['of', 'at'], optional: [] },
  difference: { required: ['of', 'to', 'at'], optional: [] },
  'ratio-gap': { required: ['of', 'to', 'against'], optional: ['at', 'over', 'reduce'] },
  unsupported: { required: [], optional: [] },
};
const KINDS = Object.keys(MEASURE_KEYS) as MeasureKind[];

export function loadClaimsFile(path: string): PaperClaims {
  return loadClaimsText(readInputFile(path, 'claims file'), path);
}

/** `file` locates errors and is the folder scenario paths are relative to. */
export function loadClaimsText(text: string, file: string): PaperClaims {
  const root = parseYaml(text, file);
  if (!root.present) throw root.error('the claims file is empty; expected seed, title and claims');
  const f = root.entries('the claims file', FILE_KEYS);
  const need = (key: string): YamlValue => {
    const field = f.get(key);
    if (!field?.present) throw root.error(`the claims file needs '${key}'`);
    return field;
  };
  const seed = need('seed').text('seed');
  const title = need('title').text('title');
  const items = need('claims').items('claims');
  const claims: Claim[] = [];
  const ids = new Set<string>();
  for (const item of items) {
    const claim = readClaim(item, seed, file);
    if (ids.has(claim.id)) throw item.error(`claim id '${claim.id}' appears twice`);
    ids.add(claim.id);
    claims.push(claim);
  }
  return { file, seed, title, claims };
}

function readClaim(item: YamlValue, seed: string, file: string): Claim {
  const f = item.entries('a claim', CLAIM_KEYS);
  const get = (key: string): YamlValue | undefined => (f.get(key)?.present ? f.get(key) : undefined);
  const need = (key: string): YamlValue => {
    const field = get(key);
    if (!field) throw item.error(`a claim needs '${key}'`);
    return field;
  };
  const id = need('id').text('id');
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id))
    throw need('id').error(`claim id '${id}' may hold only letters, digits, '.', '_' and '-'`);
  const measureField = need('measure');
  const measure = readMeasure(measureField, dirname(file));
  // Only a claim the model cannot express may go without a scenario.
  const scenarioField = measure.kind === 'unsupported' ? get('scenario') : need('scenario');
  const scenario = scenarioField ? scenarioPath(scenarioField, 'scenario', dirname(file)) : undefined;
  const publishedField = get('published');
  const published = readPublished(publishedField, measure.kind, measureField);
  const toleranceField = get('tolerance');
  const tolerance = readTolerance(toleranceField, measure.kind, measureField);

  const expectField = need('expect');
  const expect = expectField.string('expect');
  if (expect !== 'pass' && expect !== 'fail' && expect !== 'unrun')
    throw expectField.error(`expect must be 'pass', 'fail' or 'unrun', got ${expectField.describe()}`);
  const missing = get('missing')?.string('missing');
  if (expect === 'fail' && !missing)
    throw expectField.error("a claim expected to fail needs 'missing': the mechanism the model lacks, in one line");
  // A reason left on a claim that passes would be shown as if it still held.
  if (expect === 'pass' && missing !== undefined)
    throw get('missing')!.error("a claim expected to pass has no 'missing': remove it, or set expect to fail");
  if (missing?.includes('\n')) throw get('missing')!.error('missing must be one line');
  const missingParts = missing === undefined ? undefined : parseMissing(missing, (d) => get('missing')!.error(d));
  if (
    missingParts?.some((p) => typeof p !== 'string') &&
    (measure.kind === 'unsupported' || measure.kind === 'growth' || measure.kind === 'memory')
  )
    throw get('missing')!.error(
      `a figure is computed from one table of the claim's scenario, and a${measure.kind === 'unsupported' ? 'n unsupported' : ` ${measure.kind}`} claim has none`,
    );
  if (measure.kind === 'unsupported' && expect !== 'fail')
    throw expectField.error("a claim the model cannot express ('unsupported') is expected to fail");

  const machine = get('machine')?.text('machine');
  const ranks = get('ranks')?.integer(1, 'ranks');
  return {
    id,
    seed,
    source: need('source').text('source'),
    statement: need('statement').string('statement').trim(),
    ...(scenario ? { scenario } : {}),
    ...(machine !== undefined ? { machine } : {}),
    ...(ranks !== undefined ? { ranks } : {}),
    measure,
    published,
    publishedText: describePublished(publishedField, measure.kind),
    ...(tolerance ? { tolerance } : {}),
    toleranceText: toleranceField ? String(toleranceField.scalar()) : '-',
    input: get('input') ? boolean(get('input')!, 'input') : false,
    expect,
    fast: get('fast') ? boolean(get('fast')!, 'fast') : false,
    ...(missing ? { missing, missingParts, missingWhere: fieldWhere(file, get('missing')!) } : {}),
    where: { file, line: lineOf(item) },
  };
}

/** `dir`: the claims file's folder, which scenario paths are relative to. */
function readMeasure(field: YamlValue, dir: string): Measure {
  const raw = field.entries('measure');
  const kindField = raw.get('kind');
  if (!kindField?.present) throw field.error(`measure needs 'kind', one of ${KINDS.join(', ')}`);
  const kindText = kindField.string('measure.kind');
  if (!(KINDS as string[]).includes(kindText)) {
    const hint = didYouMean(kindText, KINDS);
    throw kindField.error(
      `unknown measure kind '${kindText}'${hint ? ` (did you mean '${hint}'?)` : ''}; kinds: ${KINDS.join(', ')}`,
    );
  }
  const kind = kindText as MeasureKind;
  const keys = MEASURE_KEYS[kind];
  const m = field.entries(`a ${kind} measure`, ['kind', ...keys.required, ...keys.optional]);
  for (const key of keys.required) if (!m.get(key)?.present) throw field.error(`a ${kind} measure needs '${key}'`);
  const label = (key: string): string => m.get(key)!.text(key);
  const labels = (key: string): string[] => {
    const items = m
      .get(key)!
      .items(key)
      .map((i) => i.text(key));
    if (items.length === 0) throw m.get(key)!.error(`${key} must name at least one label`);
    return items;
  };
  const span = (): SizeSpan => readSpan(m.get('over')!);
  const at = (): number => readSize(m.get('at')!);
  const sizes = (): SizeChoice => {
    const hasAt = m.get('at')?.present;
    const hasOver = m.get('over')?.present;
    if (hasAt === hasOver)
      throw field.error(`a ${kind} measure needs exactly one of 'at' (one size) and 'over' (a size range)`);
    return hasAt ? { at: at() } : { over: span() };
  };
  const reduce = (): 'min' | 'max' => {
    const r = m.get('reduce');
    if (!r?.present) {
      if (m.get('over')?.present)
        throw field.error(`a ${kind} measure over a range needs 'reduce: min' or 'reduce: max'`);
      return 'min';
    }
    const v = r.string('reduce');
    if (v !== 'min' && v !== 'max') throw r.error(`reduce must be 'min' or 'max', got ${r.describe()}`);
    return v;
  };
  switch (kind) {
    case 'ratio':
      return { kind, of: label('of'), to: label('to'), ...sizes(), reduce: reduce() };
    case 'ratio-range':
      return { kind, of: label('of'), to: label('to'), over: span() };
    case 'ordering':
      return { kind, faster: label('faster'), than: labels('than'), over: span() };
    case 'crossover':
      return { kind, winner: label('winner'), loser: label('loser'), over: span() };
    case 'best-param':
      return { kind, among: labels('among'), ...sizes() };
    case 'spread':
      return { kind, among: labels('among'), over: span() };
    case 'share':
      return {
        kind,
        of: label('of'),
        category: m.get('category')!.kind() === 'seq' ? labels('category') : [label('category')],
        ...sizes(),
        reduce: reduce(),
      };
    case 'growth': {
      const q = m.get('quantity');
      const quantity = q?.present ? q.string('quantity') : 'time';
      if (quantity !== 'time' && quantity !== 'memory')
        throw q!.error(`quantity must be 'time' or 'memory', got ${q!.describe()}`);
      const choice = sizes();
      if ('over' in choice && quantity === 'time')
        throw field.error("a growth measure over sizes takes 'quantity: memory' (time's growth with size is a ratio)");
      return { kind, of: label('of'), quantity, ...choice };
    }
    case 'memory':
      return { kind, of: label('of'), at: at() };
    case 'difference':
      return { kind, of: label('of'), to: label('to'), at: at() };
    case 'ratio-gap':
      return {
        kind,
        of: label('of'),
        to: label('to'),
        ...sizes(),
        reduce: reduce(),
        against: scenarioPath(m.get('against')!, 'against', dir),
      };
    case 'unsupported':
      return { kind };
  }
}

function readPublished(field: YamlValue | undefined, kind: MeasureKind, measure: YamlValue): Published {
  if (kind === 'ordering' || kind === 'unsupported') {
    if (field) throw field.error(`a ${kind} claim has no published value; its statement says it`);
    return { kind: 'none' };
  }
  if (!field) throw measure.error(`a ${kind} claim needs 'published'`);
  if (kind === 'best-param') {
    const labels =
      field.kind() === 'seq' ? field.items('published').map((i) => i.text('published')) : [field.text('published')];
    return { kind: 'labels', labels };
  }
  if (kind === 'crossover') {
    const s = readSize(field);
    return { kind: 'interval', lo: s, hi: s };
  }
  if (field.kind() === 'seq') {
    const [lo, hi, ...rest] = field.items('published');
    if (!lo || !hi || rest.length) throw field.error('a published interval is [low, high]');
    const interval = { kind: 'interval' as const, lo: number(lo, 'published[0]'), hi: number(hi, 'published[1]') };
    if (interval.lo > interval.hi) throw field.error('a published interval is [low, high], low first');
    return interval;
  }
  if (field.kind() === 'map') {
    const bound = field.entries('published', ['atLeast', 'atMost']);
    const least = bound.get('atLeast');
    const most = bound.get('atMost');
    if (!least?.present && !most?.present) throw field.error('a published bound is { atLeast: x } or { atMost: x }');
    return {
      kind: 'interval',
      lo: least?.present ? number(least, 'atLeast') : -Infinity,
      hi: most?.present ? number(most, 'atMost') : Infinity,
    };
  }
  const v = number(field, 'published');
  return { kind: 'interval', lo: v, hi: v };
}

const TOLERANCE_FORM: Record<MeasureKind, Tolerance['kind'] | undefined> = {
  ratio: 'absolute',
  'ratio-range': 'absolute',
  ordering: 'relative',
  crossover: 'factor',
  'best-param': 'relative',
  spread: 'absolute',
  share: 'absolute',
  growth: 'absolute',
  memory: 'absolute',
  difference: 'absolute',
  'ratio-gap': 'absolute',
  unsupported: undefined,
};

/** `0.1` (absolute), `x2` (factor), `5%` (relative); which one is fixed by the measure kind. */
function readTolerance(field: YamlValue | undefined, kind: MeasureKind, measure: YamlValue): Tolerance | undefined {
  const form = TOLERANCE_FORM[kind];
  if (!form) {
    if (field) throw field.error(`a ${kind} claim takes no tolerance`);
    return undefined;
  }
  if (!field)
    throw measure.error(`a ${kind} claim needs 'tolerance' (${example(form)}), written before the claim is first run`);
  const v = field.scalar();
  if (form === 'absolute' && typeof v === 'number' && v >= 0) return { kind: form, value: v };
  if (form === 'factor' && typeof v === 'string' && /^x\d+(\.\d+)?$/.test(v) && Number(v.slice(1)) >= 1)
    return { kind: form, value: Number(v.slice(1)) };
  if (form === 'relative' && typeof v === 'string' && /^\d+(\.\d+)?%$/.test(v))
    return { kind: form, value: Number(v.slice(0, -1)) / 100 };
  throw field.error(`the tolerance of a ${kind} claim is ${example(form)}, got ${field.describe()}`);
}

function example(form: Tolerance['kind']): string {
  return form === 'absolute'
    ? "a number in the value's unit, e.g. 0.1"
    : form === 'factor'
      ? "a factor such as 'x2'"
      : "a margin such as '5%'";
}

/** A scenario file named relative to the claims file's folder `dir`, which must exist. */
function scenarioPath(field: YamlValue, what: string, dir: string): string {
  const name = field.string(what);
  const path = resolve(dir, name);
  if (!existsSync(path)) throw field.error(`no scenario file ${name} beside the claims file`);
  return path;
}

function readSpan(field: YamlValue): SizeSpan {
  const text = field.string('over');
  try {
    return parseSpan(text);
  } catch (e) {
    if (e instanceof SizeError) throw field.error(e.message);
    throw e;
  }
}

function readSize(field: YamlValue): number {
  const v = field.scalar();
  if (typeof v !== 'string' && typeof v !== 'number')
    throw field.error(`expected a size such as 64KiB, got ${field.describe()}`);
  return sizeOf(field, v);
}

function sizeOf(field: YamlValue, v: string | number): number {
  try {
    return parseSize(v);
  } catch (e) {
    if (e instanceof SizeError) throw field.error(e.message);
    throw e;
  }
}

function number(field: YamlValue, what: string): number {
  const v = field.scalar();
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw field.error(`${what} must be a number, got ${field.describe()}`);
  return v;
}

function boolean(field: YamlValue, what: string): boolean {
  const v = field.scalar();
  if (typeof v !== 'boolean') throw field.error(`${what} must be true or false, got ${field.describe()}`);
  return v;
}

function describePublished(field: YamlValue | undefined, kind: MeasureKind): string {
  if (!field) return '-';
  if (field.kind() === 'seq')
    return field
      .items('published')
      .map((i) => String(i.scalar()))
      .join(kind === 'best-param' ? ', ' : '–');
  if (field.kind() === 'map') {
    const e = field.entries('published');
    return [...e].map(([k, v]) => `${k === 'atLeast' ? '≥' : '≤'} ${String(v.scalar())}`).join(', ');
  }
  return String(field.scalar());
}

/** Where a field is written: its file, line and path. */
function fieldWhere(file: string, field: YamlValue): ClaimLocation & { field: string } {
  return { file, line: lineOf(field), field: field.location().field ?? 'missing' };
}

/** The 1-based line a field starts on. */
function lineOf(field: YamlValue): number {
  return field.location().line ?? 1;
}
