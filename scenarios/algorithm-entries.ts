// The `algorithms:` list of a scenario, checked against the catalogue: every name known, for the
// scenario's operation, every parameter known and of the right kind.
import {
  paramDefaults,
  shortName,
  type AlgorithmMeta,
  type ParamInfo,
  type ParamValue,
} from '../algorithms/algorithm.ts';
import type { Listing } from '../algorithms/listing.ts';
import { MECHANISM_PARAMS, POINT_TO_POINT_PARAMS, withTransportParams } from '../sim/kernel/transport-params.ts';
import { transportConflict } from '../sim/kernel/p2p.ts';
import { didYouMean } from '../common/input-error.ts';
import type { ScenarioAlgorithm } from './scenario.ts';
import { formatSize, parseSize, SizeError } from './sizes.ts';
import type { YamlValue } from '../common/yaml/value.ts';

const ENTRY_KEYS = ['name', 'params', 'label'] as const;

export function readAlgorithms(field: YamlValue, operation: string, catalogue: Listing): ScenarioAlgorithm[] {
  const items = field.items('algorithms');
  if (items.length === 0) throw field.error('algorithms must name at least one algorithm');
  const out: ScenarioAlgorithm[] = [];
  const labels = new Map<string, string>();
  for (const item of items) {
    const entry = readEntry(item, operation, catalogue);
    const previous = labels.get(entry.label);
    if (previous !== undefined) {
      throw item.error(
        `two algorithms have the label '${entry.label}' (the other is ${previous}); give one a distinct 'label'`,
      );
    }
    labels.set(entry.label, item.path);
    out.push({ ...entry, at: item.location() });
  }
  return out;
}

function readEntry(item: YamlValue, operation: string, catalogue: Listing): ScenarioAlgorithm {
  if (item.kind() !== 'map') {
    const info = lookup(item, item.string('algorithm name'), operation, catalogue);
    return { name: info.name, label: shortName(info), params: paramDefaults(info) };
  }
  const fields = item.entries('an algorithm entry', ENTRY_KEYS);
  const nameField = fields.get('name');
  if (!nameField?.present) throw item.error("an algorithm entry needs a 'name'");
  const info = lookup(nameField, nameField.string('algorithm name'), operation, catalogue);
  const params = paramDefaults(info);
  const given: string[] = [];
  const paramsField = fields.get('params');
  if (paramsField?.present) {
    const accepted = withTransportParams(info.params);
    const known = accepted.map((p) => p.name);
    for (const [key, value] of paramsField.entries(`the parameters of ${info.name}`, known)) {
      // entries() has already rejected keys outside `known`.
      const param = accepted.find((p) => p.name === key)!;
      params[key] = readParam(value, param, info);
      given.push(`${key}=${showParam(param, params[key])}`);
    }
    const conflict =
      transportConflict(params) ??
      unusedPointToPointParam(info, params) ??
      unusedMechanismParam(info, params, catalogue.listAlgorithms(operation));
    if (conflict)
      throw paramsField.entries(`the parameters of ${info.name}`, known).get(conflict.param)!.error(conflict.message);
  }
  const labelField = fields.get('label');
  let label = given.length ? `${shortName(info)}(${given.join(',')})` : shortName(info);
  if (labelField?.present) {
    label = labelField.printable('label').trim();
    if (!label) throw labelField.error('label must not be empty');
  }
  return { name: info.name, label, params };
}

/**
 * A transport parameter of point-to-point messages given to an algorithm that sends none with these
 * parameters (its data moves through a kernel mechanism or shared memory of its own, its flags as
 * control messages): its value would change nothing, so it is refused. One the algorithm declares
 * itself is its own.
 */
function unusedPointToPointParam(
  info: AlgorithmMeta,
  params: Record<string, ParamValue>,
): { param: string; message: string } | undefined {
  if (info.pointToPoint?.(params) !== false) return undefined;
  const param = POINT_TO_POINT_PARAMS.find(
    (name) => params[name] !== undefined && !info.params.some((p) => p.name === name),
  );
  if (param === undefined) return undefined;
  const own = info.mechanisms?.(params) ?? [];
  const through = own.length
    ? `its data moves through ${mechanismNames(own)}`
    : 'its data moves through shared memory of its own';
  return {
    param,
    message: `${param} configures point-to-point messages, but ${info.name} sends none with these parameters (${through}, its flags as control messages); leave it out`,
  };
}

/**
 * A parameter of a kernel mechanism that the algorithm never calls with these parameters, neither
 * itself nor through point-to-point's `single`: its value would change nothing, so it is refused.
 * The advice names only ways that reach the mechanism: `single` where point-to-point can take it,
 * the operation's algorithms that call it, and otherwise leaving the parameter out.
 */
function unusedMechanismParam(
  info: AlgorithmMeta,
  params: Record<string, ParamValue>,
  others: readonly AlgorithmMeta[],
): { param: string; message: string } | undefined {
  const own = info.mechanisms?.(params) ?? [];
  const sends = info.pointToPoint?.(params) ?? true;
  for (const [param, mechanism] of Object.entries(MECHANISM_PARAMS)) {
    if (params[param] === undefined || own.includes(mechanism) || (sends && params.single === mechanism)) continue;
    const name = mechanism.toUpperCase();
    const calls = own.length ? ` (it calls ${mechanismNames(own)})` : '';
    // Point-to-point reaches the mechanism through `single`, which Nemesis runs as its LMT.
    const viaSingle = sends && params.lmt !== false;
    const why = !sends
      ? ', and it sends no point-to-point message for single to put on it'
      : ` and single is ${JSON.stringify(params.single ?? 'none')}`;
    const callers = others.filter((a) => a.mechanisms?.(paramDefaults(a)).includes(mechanism)).map((a) => shortName(a));
    const ways = [
      ...(viaSingle ? [`add single: ${mechanism}`] : []),
      ...(callers.length ? [`run an algorithm that calls ${name} (${callers.join(', ')})`] : []),
      'leave it out',
    ];
    const advice = ways.length > 1 ? `${ways.slice(0, -1).join(', ')} or ${ways.at(-1)}` : ways[0];
    return {
      param,
      message: `${param} configures ${name}, but ${info.name} never calls ${name} with these parameters${calls}${why}; ${advice}`,
    };
  }
  return undefined;
}

/** Mechanisms as the messages name them: KNEM, CMA. */
function mechanismNames(mechanisms: readonly string[]): string {
  return mechanisms.map((m) => m.toUpperCase()).join(', ');
}

function lookup(field: YamlValue, name: string, operation: string, catalogue: Listing): AlgorithmMeta {
  const colon = name.indexOf(':');
  if (colon >= 0 && name.slice(0, colon) !== operation) {
    throw field.error(
      `algorithm '${name}' belongs to operation '${name.slice(0, colon)}', but this scenario's operation is '${operation}'`,
    );
  }
  const info = catalogue.findAlgorithm(name, operation);
  if (info) return info;
  const known = catalogue.listAlgorithms(operation).map(shortName);
  const hint = didYouMean(colon >= 0 ? name.slice(colon + 1) : name, known);
  const elsewhere = catalogue
    .listAlgorithms()
    .filter((a) => shortName(a) === name)
    .map((a) => a.operation);
  let detail = `unknown ${operation} algorithm '${name}'`;
  if (hint) detail += ` (did you mean '${hint}'?)`;
  else if (elsewhere.length) detail += ` (it exists for ${elsewhere.join(', ')})`;
  detail += known.length
    ? `; ${operation} algorithms: ${known.join(', ')}`
    : `; no ${operation} algorithm is registered`;
  throw field.error(detail);
}

function readParam(field: YamlValue, param: ParamInfo, info: AlgorithmMeta): ParamValue {
  const what = `parameter '${param.name}' of ${info.name}`;
  const value = field.scalar();
  switch (param.kind) {
    case 'bytes': {
      if (typeof value === 'string' && param.keywords?.includes(value)) return value;
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw field.error(`${what} must be a size such as 256KiB, got ${field.describe()}`);
      }
      let bytes: number;
      try {
        bytes = parseSize(value);
      } catch (e) {
        if (e instanceof SizeError && param.keywords?.length)
          throw field.error(
            `${what}: ${e.message}; give a size or ${param.keywords.map((k) => `'${k}'`).join(' or ')}`,
          );
        if (e instanceof SizeError) throw field.error(`${what}: ${e.message}`);
        throw e;
      }
      // A size parameter (segment, fragment, threshold) of 0 bytes would never make progress.
      return checkRange(field, what, bytes, param.min ?? 1, param.max, formatSize);
    }
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value))
        throw field.error(`${what} must be an integer, got ${field.describe()}`);
      return checkRange(field, what, value, param.min, param.max, String);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw field.error(`${what} must be a number, got ${field.describe()}`);
      return checkRange(field, what, value, param.min, param.max, String);
    case 'boolean':
      if (typeof value !== 'boolean') throw field.error(`${what} must be true or false, got ${field.describe()}`);
      return value;
    case 'choice': {
      const choices = param.choices ?? [];
      if (typeof value !== 'string' || !choices.includes(value)) {
        const hint = typeof value === 'string' ? didYouMean(value, choices) : undefined;
        throw field.error(
          `${what} must be one of ${choices.join(', ')}, got ${field.describe()}${hint ? ` (did you mean '${hint}'?)` : ''}`,
        );
      }
      return value;
    }
  }
}

function checkRange(
  field: YamlValue,
  what: string,
  value: number,
  min: number | undefined,
  max: number | undefined,
  show: (n: number) => string,
): number {
  if (min !== undefined && value < min) throw field.error(`${what} must be at least ${show(min)}, got ${show(value)}`);
  if (max !== undefined && value > max) throw field.error(`${what} must be at most ${show(max)}, got ${show(value)}`);
  return value;
}

function showParam(param: ParamInfo, value: ParamValue): string {
  return param.kind === 'bytes' && typeof value === 'number' ? formatSize(value) : String(value);
}
