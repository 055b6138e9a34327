// One benchmark program defined once per transport ("<operation>:<transport>"), each declaring
// the parameters its transport takes; the program builds its transport from the call's parameters.
import type { Program, Rank } from '../../sim/node/rank-api.ts';
import { defineAlgorithm, type Defined, type ParamValue } from '../algorithm.ts';
import type { ArgsOf } from '../operations.ts';
import {
  describeTransport,
  transport,
  paramsOfTransport,
  TRANSPORTS,
  usesOfTransport,
  type Transport,
  type TransportName,
} from './transport.ts';

export interface WithParams {
  params: Record<string, ParamValue>;
}

/** The operations whose programs read their transport from the call's parameters. */
export type TransportOperation = 'pingping' | 'onetoall' | 'alltoallpairs';

export function overTransports<Op extends TransportOperation>(
  operation: Op,
  what: string,
  body: (t: Transport, rank: Rank, args: ArgsOf<Op>) => Program<void>,
  transports: readonly TransportName[] = TRANSPORTS,
): Array<Defined<Op>> {
  return transports.map((name) =>
    defineAlgorithm({
      name: `${operation}:${name}`,
      operation,
      description: `${what} over ${describeTransport(name)}`,
      params: paramsOfTransport(name),
      ...usesOfTransport(name),
      program: (rank, args) => body(transport(name, args.params), rank, args),
    }),
  );
}
