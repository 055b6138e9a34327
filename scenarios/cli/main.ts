// The `intranode` command. Returns the exit code: 0 success, 1 invalid input (InputError: one
// line, no stack trace), 2 invalid command line, 3 internal error.
import { readFileSync } from 'node:fs';
import { InputError } from '../../common/input-error.ts';
import { parseArgs, UsageError } from './args.ts';
import { defaultEnv, type CliEnv } from './env.ts';
import { HELP } from './help.ts';

export async function main(argv: string[], overrides: Partial<CliEnv> = {}): Promise<number> {
  const env: CliEnv = { ...defaultEnv(), ...overrides };
  try {
    const cmd = parseArgs(argv);
    switch (cmd.command) {
      case 'help':
        env.stdout(HELP);
        return 0;
      case 'version':
        env.stdout(`intranode ${version()}\n`);
        return 0;
      // Each command's modules load when it runs: `--version` or `machines` should not pay for the
      // simulator, the reporters or the reproduction report's plotting.
      case 'run':
        return await (await import('./run-command.ts')).runCommand(cmd, env);
      case 'merge':
        return await (await import('./merge-command.ts')).mergeCommand(cmd, env);
      case 'slurm':
        return await (await import('./slurm-command.ts')).slurmCommand(cmd, env);
      case 'machines':
        return await (await import('./machines-command.ts')).machinesCommand(env);
      case 'machine-show':
        return await (await import('./list-commands.ts')).machineShowCommand(cmd, env);
      case 'algorithms':
        return await (await import('./list-commands.ts')).algorithmsCommand(cmd.operation, env);
      case 'reproduce': {
        const { defaultReproduceIO, reproduceCommand } = await import('./reproduce-command.ts');
        return await reproduceCommand(cmd, { ...defaultReproduceIO(), ...env });
      }
    }
  } catch (e) {
    return reportError(e, env.stderr);
  }
}

/** Says on stderr what went wrong in a command and returns the exit status for it. */
export function reportError(e: unknown, stderr: (text: string) => void): number {
  if (e instanceof UsageError) {
    stderr(`intranode: ${e.message}\nTry 'intranode --help'.\n`);
    return 2;
  }
  if (e instanceof InputError) {
    stderr(`intranode: ${e.message}\n`);
    return 1;
  }
  stderr(`intranode: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  return 3;
}

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
