// Command-line parsing. Misuse (unknown command or flag, missing value) is a UsageError: exit code 2.
import { didYouMean } from '../../common/input-error.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface RunArgs {
  command: 'run';
  file?: string;
  machine?: string;
  format: 'table' | 'json' | 'csv';
  breakdown: boolean;
  seed?: string;
}

export type Command =
  | RunArgs
  | { command: 'help' }
  | { command: 'version' }
  | { command: 'machines' }
  | { command: 'machine-show'; ref: string }
  | { command: 'algorithms'; operation?: string };

const COMMANDS = ['run', 'machines', 'machine', 'algorithms', 'help'];
const RUN_FLAGS = ['--machine', '--json', '--csv', '--breakdown', '--seed', '--help'];
const VALUE_FLAGS = new Set(['--machine', '--seed']);

export function parseArgs(argv: string[]): Command {
  if (argv.includes('--help') || argv.includes('-h')) return { command: 'help' };
  if (argv.includes('--version') || argv.includes('-V')) return { command: 'version' };
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('missing command');
  if (command.startsWith('-')) throw unknownFlag(command, ['--help', '--version']);
  switch (command) {
    case 'run':
      return parseRun(rest);
    case 'help':
      return { command: 'help' };
    case 'machines':
      positionals(rest, 0, 'machines');
      return { command: 'machines' };
    case 'machine': {
      const [sub, ...args] = positionals(rest, 2, 'machine');
      if (sub !== 'show') {
        throw new UsageError(sub === undefined ? "'machine' needs a subcommand: machine show NAME|FILE" : `unknown subcommand 'machine ${sub}' (use: machine show NAME|FILE)`);
      }
      if (args[0] === undefined) throw new UsageError("'machine show' needs a preset name or a machine file");
      return { command: 'machine-show', ref: args[0] };
    }
    case 'algorithms':
      return { command: 'algorithms', operation: positionals(rest, 1, 'algorithms')[0] };
    default: {
      const hint = didYouMean(command, COMMANDS);
      throw new UsageError(`unknown command '${command}'${hint ? ` (did you mean '${hint}'?)` : ''}`);
    }
  }
}

function positionals(args: string[], max: number, command: string): string[] {
  for (const a of args) if (a.startsWith('-')) throw unknownFlag(a, ['--help']);
  if (args.length > max) throw new UsageError(`'${command}' takes at most ${max} argument${max === 1 ? '' : 's'}, got: ${args.join(' ')}`);
  return args;
}

function parseRun(args: string[]): RunArgs {
  const out: RunArgs = { command: 'run', format: 'table', breakdown: false };
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('-') || arg === '-') {
      files.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (!RUN_FLAGS.includes(flag)) throw unknownFlag(flag, RUN_FLAGS);
    let value: string | undefined;
    if (VALUE_FLAGS.has(flag)) {
      value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
    } else if (eq > 0) {
      throw new UsageError(`${flag} takes no value`);
    }
    switch (flag) {
      case '--machine':
        out.machine = value;
        break;
      case '--seed':
        out.seed = value;
        break;
      case '--json':
      case '--csv': {
        const format = flag === '--json' ? 'json' : 'csv';
        if (out.format !== 'table' && out.format !== format) throw new UsageError('--json and --csv cannot be used together');
        out.format = format;
        break;
      }
      case '--breakdown':
        out.breakdown = true;
        break;
    }
  }
  if (files.length > 1) throw new UsageError(`'run' takes one scenario file, got: ${files.join(' ')}`);
  out.file = files[0];
  return out;
}

function unknownFlag(flag: string, known: string[]): UsageError {
  const hint = didYouMean(flag, known);
  return new UsageError(`unknown option '${flag}'${hint ? ` (did you mean '${hint}'?)` : ''}`);
}
