// `intranode machine show` and `algorithms`: what the simulator knows about (`machines` is in
// machines-command.ts, which loads neither the hardware layer nor the algorithms).
import { shortName, type ParamInfo } from '../../algorithms/algorithm.ts';
import { transportParams } from '../../sim/kernel/transport-params.ts';
import { didYouMean } from '../../common/input-error.ts';
import { formatSize } from '../sizes.ts';
import { isHwlocExport } from '../../common/paths.ts';
import { UsageError, type MachineShowArgs } from './args.ts';
import { hwlocChoice, type CliEnv } from './env.ts';

export async function machineShowCommand(args: MachineShowArgs, env: CliEnv): Promise<number> {
  if (args.hwlocMachine !== undefined && !isHwlocExport(args.ref))
    throw new UsageError(`--hwloc-machine picks a machine of an hwloc XML file, and '${args.ref}' is not one`);
  const hardware = await env.loadHardware();
  const spec = hardware.resolveMachine(args.ref, { baseDir: env.cwd, ...hwlocChoice(args.hwlocMachine) });
  const text = hardware.renderMachine(spec);
  env.stdout(text.endsWith('\n') ? text : `${text}\n`);
  return 0;
}

export async function algorithmsCommand(operation: string | undefined, env: CliEnv): Promise<number> {
  const catalogue = await env.loadAlgorithms();
  let ops = catalogue.listOperations();
  if (operation !== undefined) {
    const op = catalogue.findOperation(operation);
    if (!op) {
      const hint = didYouMean(
        operation,
        ops.map((o) => o.name),
      );
      // The command line named it: a usage error (exit 2), not an input file's.
      throw new UsageError(
        `unknown operation '${operation}'${hint ? ` (did you mean '${hint}'?)` : ''}; operations: ${ops.map((o) => o.name).join(', ') || 'none registered'}`,
      );
    }
    ops = [op];
  }
  const lines: string[] = [];
  for (const op of ops) {
    lines.push(`${op.name}${op.rooted ? ' (rooted)' : ''}: ${op.description}`);
    for (const alg of catalogue.listAlgorithms(op.name)) {
      lines.push(`  ${shortName(alg)}: ${alg.description}`);
      for (const p of alg.params) lines.push(`    ${p.name} (${describeParam(p)}): ${p.description}`);
    }
  }
  if (lines.length) {
    lines.push(
      '',
      'transport parameters, taken by every algorithm that reaches the transport (point-to-point messages, XPMEM):',
    );
    for (const p of transportParams) lines.push(`    ${p.name} (${describeParam(p)}): ${p.description}`);
  }
  env.stdout(lines.length ? `${lines.join('\n')}\n` : 'no operation is registered\n');
  return 0;
}

function describeParam(p: ParamInfo): string {
  const show = (v: number | string | boolean) =>
    p.kind === 'bytes' && typeof v === 'number' ? formatSize(v) : String(v);
  const parts = [p.kind, `default ${show(p.default)}`];
  if (p.min !== undefined) parts.push(`min ${show(p.min)}`);
  if (p.max !== undefined) parts.push(`max ${show(p.max)}`);
  if (p.choices) parts.push(`one of ${p.choices.join('|')}`);
  return parts.join(', ');
}
