// Registers one benchmark program once per transport ("<operation>:<transport>"), each declaring
// the parameters its transport takes; the program builds its transport from the call's parameters.
import type { Program, Rank } from '../../sim/node/rank-api.ts';
import { registerAlgorithm, type ParamInfo, type ParamValue } from '../registry.ts';
import { describeTransport, transport, paramsOfTransport, TRANSPORTS, type Transport, type TransportName } from './transport.ts';

export interface WithParams {
  params: Record<string, ParamValue>;
}

export function registerForTransports<A extends WithParams>(
  operation: string,
  what: string,
  body: (t: Transport, rank: Rank, args: A) => Program<void>,
  transports: readonly TransportName[] = TRANSPORTS,
): void {
  for (const name of transports) {
    const params: ParamInfo[] = paramsOfTransport(name);
    registerAlgorithm({
      name: `${operation}:${name}`,
      operation,
      description: `${what} over ${describeTransport(name)}`,
      params,
      program: (rank: Rank, args: A) => body(transport(name, args.params), rank, args),
    });
  }
}
