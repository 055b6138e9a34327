// A path to machine parameters: dotted keys of the MachineSpec, `*` for every element of a list (or
// every entry of kernel.params, kernel.mechanisms), a number for one element. Resolved against a
// machine's actual structure into the concrete places it names.
import { didYouMean } from '../../common/input-error.ts';
import { childPlace, DESCRIPTIVE, optionalKeys, PARAMETERS, parametersUnder } from './parameters.ts';

export type PathStep = string | number;

/** One concrete value a path names: its steps from the spec's root, and its place in PARAMETERS. */
export interface ResolvedLeaf {
  steps: PathStep[];
  place: string;
}

/** Thrown for a path that does not fit the machine; the caller locates it. */
export class ParameterPathError extends Error {
  override name = 'ParameterPathError';
}

/** A key, a list index, or '*' for every element. */
type Segment = PathStep;

export function parsePath(text: string): Segment[] {
  if (text.trim() === '') throw new ParameterPathError('the path is empty');
  return text.split('.').map((part, i) => {
    if (part === '*') return '*';
    if (/^\d+$/.test(part)) return Number(part);
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(part)) return part;
    throw new ParameterPathError(
      part === ''
        ? `part ${i + 1} of the path is empty (two dots, or a dot at an end)`
        : `'${part}' is not a key, a list index or *`,
    );
  });
}

/** Writes steps back as a path, as messages and reports show them: `links.0.bandwidth`. */
export function formatSteps(steps: readonly PathStep[]): string {
  return steps.join('.');
}

/** Every leaf of `spec` the path names; at least one, each a sweepable parameter. */
export function resolvePath(spec: object, text: string): ResolvedLeaf[] {
  const segments = parsePath(text);
  const out: ResolvedLeaf[] = [];
  walk(spec, segments, 0, [], '', out);
  if (out.length === 0) throw new ParameterPathError(`'${text}' matches nothing in this machine`);
  return out;
}

function walk(node: unknown, segments: Segment[], i: number, steps: PathStep[], place: string, out: ResolvedLeaf[]) {
  const here = steps.length ? formatSteps(steps) : 'the machine';
  if (i === segments.length) {
    if (PARAMETERS[place]) return void out.push({ steps, place });
    if (DESCRIPTIVE[place])
      throw new ParameterPathError(`${here} is not a parameter a sweep may change: ${DESCRIPTIVE[place]}`);
    const under = parametersUnder(place);
    throw new ParameterPathError(
      under.length
        ? `${here} is not a parameter but holds some: ${under.join(', ')}`
        : `${here} is not a parameter a sweep may change (the machine's structure stays as its file gives it); parameters: ${Object.keys(PARAMETERS).join(', ')}`,
    );
  }
  const seg = segments[i];
  if (Array.isArray(node)) {
    if (typeof seg === 'string' && seg !== '*')
      throw new ParameterPathError(
        `${here} is a list of ${node.length}: write an index (0..${node.length - 1}) or *, not '${seg}'`,
      );
    if (typeof seg === 'number' && seg >= node.length)
      throw new ParameterPathError(`${here} has ${node.length} entries (0..${node.length - 1}), so no entry ${seg}`);
    const indices = seg === '*' ? node.map((_, k) => k) : [seg];
    for (const k of indices) walk(node[k], segments, i + 1, [...steps, k], childPlace(place, k), out);
    return;
  }
  if (node === undefined || node === null || typeof node !== 'object')
    throw new ParameterPathError(`${here} is a value, with nothing under it`);
  const present = Object.keys(node);
  const optional = optionalKeys(place);
  if (seg === '*') {
    if (!isNamedMap(place))
      throw new ParameterPathError(
        `* stands for every element of a list or every entry of kernel.params or kernel.mechanisms; ${here} has keys ${present.join(', ')}`,
      );
    for (const key of present)
      walk((node as Record<string, unknown>)[key], segments, i + 1, [...steps, key], childPlace(place, key), out);
    return;
  }
  if (typeof seg === 'number') throw new ParameterPathError(`${here} is not a list; its keys: ${present.join(', ')}`);
  if (!present.includes(seg) && !optional.includes(seg)) {
    const known = [...new Set([...present, ...optional])];
    const hint = didYouMean(seg, known);
    throw new ParameterPathError(
      `unknown key '${seg}' in ${here}${hint ? ` (did you mean '${hint}'?)` : ''}; keys there: ${known.join(', ')}`,
    );
  }
  walk((node as Record<string, unknown>)[seg], segments, i + 1, [...steps, seg], childPlace(place, seg), out);
}

function isNamedMap(place: string): boolean {
  return childPlace(place, 'x') === `${place}.*`;
}
