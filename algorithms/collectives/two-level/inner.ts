// The algorithms a two-level composition runs at each level, named by parameters. The choices are
// every registered algorithm of the operation except the two-level one itself (which would nest
// without end inside one NUMA node); they are read from the registry when asked, so algorithms
// registered after this module count too.
import type { AlgorithmProgram, ParamInfo, ParamValue } from '../../registry.ts';
import { findAlgorithm, listAlgorithms, paramDefaults, shortName } from '../../registry.ts';

const SELF = 'two-level';

function shortNames(operation: string): string[] {
  return listAlgorithms(operation).map(shortName).filter((n) => n !== SELF);
}

/** A 'choice' parameter naming an algorithm of `operation`. */
export function innerParam(name: string, operation: string, fallback: string, description: string): ParamInfo {
  return {
    name,
    kind: 'choice',
    default: fallback,
    description,
    get choices() {
      return shortNames(operation);
    },
  };
}

export interface Inner {
  name: string;
  program: AlgorithmProgram;
  /** Its parameters: every one at its default. */
  params: Record<string, ParamValue>;
}

/** The algorithm `params[field]` names; an Error naming the field when it is not one of the choices. */
export function innerAlgorithm(algorithm: string, params: Record<string, ParamValue>, field: string, operation: string, fallback: string): Inner {
  const name = params[field] ?? fallback;
  const info = typeof name === 'string' && name !== SELF ? findAlgorithm(`${operation}:${name}`) : undefined;
  if (!info) {
    throw new Error(`${algorithm}: params.${field} must name a ${operation} algorithm, one of ${shortNames(operation).join(', ')}; got ${JSON.stringify(name)}`);
  }
  return { name: info.name, program: info.program, params: paramDefaults(info) };
}
