// The algorithms a two-level composition runs at each level, named by parameters. The choices are
// the algorithms of the operation the catalogue holds besides the two-level family (which would
// nest without end inside one NUMA node): algorithms/catalogue.ts hands them over as `Candidates`.
import type { AlgorithmInfo, AlgorithmProgram, Defined, ParamInfo, ParamValue } from '../../algorithm.ts';
import { defineAlgorithm, paramDefaults, shortName } from '../../algorithm.ts';
import type { OperationName } from '../../operations.ts';

/** The algorithms of one operation a level may run, typed by that operation. */
export type Candidates = <Op extends OperationName>(operation: Op) => Array<AlgorithmInfo<Op>>;

/** A 'choice' parameter naming one of `candidates`. */
export function innerParam<Op extends OperationName>(
  name: string,
  candidates: Array<AlgorithmInfo<Op>>,
  fallback: string,
  description: string,
): ParamInfo {
  return { name, kind: 'choice', default: fallback, description, choices: candidates.map(shortName) };
}

export interface Inner<Op extends OperationName> {
  name: string;
  program: AlgorithmInfo<Op>['program'];
  mechanisms: AlgorithmInfo<Op>['mechanisms'];
  pointToPoint: AlgorithmInfo<Op>['pointToPoint'];
  /** Its parameters: every one at its default. */
  params: Record<string, ParamValue>;
}

/** The algorithm `params[field]` names; an Error naming the field when it is not one of the choices. */
export function innerAlgorithm<Op extends OperationName>(
  algorithm: string,
  params: Record<string, ParamValue>,
  field: string,
  operation: Op,
  fallback: string,
  candidates: Candidates,
): Inner<Op> {
  const name = params[field] ?? fallback;
  const choices = candidates(operation);
  const info = choices.find((c) => shortName(c) === name);
  if (!info) {
    throw new Error(
      `${algorithm}: params.${field} must name a ${operation} algorithm, one of ${choices.map(shortName).join(', ')}; got ${JSON.stringify(name)}`,
    );
  }
  return {
    name: info.name,
    program: info.program,
    mechanisms: info.mechanisms,
    pointToPoint: info.pointToPoint,
    params: paramDefaults(info),
  };
}

/** One level of a composition: the parameter naming its algorithm, of which operation. */
export interface Level {
  param: string;
  operation: OperationName;
  description: string;
}

/** `<operation>:two-level` with a choice parameter per level (default: the basic algorithm);
 *  the property tests draw any choice at every level. */
export function defineTwoLevel<Op extends OperationName>(
  operation: Op,
  description: string,
  levels: readonly Level[],
  candidates: Candidates,
  program: AlgorithmProgram<Op>,
  numRuns?: number,
): Defined<Op> {
  const draws = Object.fromEntries(levels.map((l) => [l.param, { anyChoice: true }]));
  const name = `${operation}:two-level`;
  const inners = (params: Record<string, ParamValue>) =>
    levels.map((l) => innerAlgorithm(name, params, l.param, l.operation, 'basic', candidates));
  return defineAlgorithm({
    name,
    operation,
    description,
    params: levels.map((l) => innerParam(l.param, candidates(l.operation), 'basic', l.description)),
    // What the algorithm of each level calls and sends, as that level runs it: with its defaults.
    mechanisms: (params) => [...new Set(inners(params).flatMap((i) => i.mechanisms?.(i.params) ?? []))],
    pointToPoint: (params) => inners(params).some((i) => i.pointToPoint?.(i.params) ?? true),
    test: numRuns === undefined ? { params: draws } : { numRuns, params: draws },
    program,
  });
}
