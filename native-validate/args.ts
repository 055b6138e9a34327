// Command line of `intranode calibrate` and `intranode validate`.
import { UsageError } from '../scenarios/cli/args.ts';
import { parseSizeSpec, SizeError } from '../scenarios/sizes.ts';
import { DEFAULT_ROUNDS } from './rounds.ts';

export interface NativeArgs {
  command: 'calibrate' | 'validate';
  out?: string;
  machine?: string;
  cores?: number[];
  ranks?: number;
  sizes?: number[];
  iterations: number;
  /** Rounds of the test set (validate): each case reports its fastest round (rounds.ts). */
  rounds: number;
  json: boolean;
  mpi: boolean;
  allowRunAsRoot: boolean;
}

const VALUE_FLAGS = ['--out', '--machine', '--cores', '--ranks', '--sizes', '--iterations', '--rounds'];
const BOOLEAN_FLAGS = ['--json', '--mpi', '--allow-run-as-root'];
const VALIDATE_ONLY = ['--machine', '--ranks', '--sizes', '--rounds', '--mpi', '--allow-run-as-root'];

/** Native iterations per size by default: enough for a stable median on a quiet host. */
export const DEFAULT_ITERATIONS = 20;

export function parseNativeArgs(argv: string[]): NativeArgs {
  const command = argv[0];
  if (command !== 'calibrate' && command !== 'validate') throw new UsageError(`unknown command '${command}'`);
  const args: NativeArgs = {
    command,
    iterations: DEFAULT_ITERATIONS,
    rounds: DEFAULT_ROUNDS,
    json: false,
    mpi: false,
    allowRunAsRoot: false,
  };
  for (let i = 1; i < argv.length; i++) {
    const flag = argv[i];
    if (command === 'calibrate' && VALIDATE_ONLY.includes(flag))
      throw new UsageError(`${flag} belongs to validate, not calibrate`);
    if (BOOLEAN_FLAGS.includes(flag)) {
      if (flag === '--json') args.json = true;
      if (flag === '--mpi') args.mpi = true;
      if (flag === '--allow-run-as-root') args.allowRunAsRoot = true;
      continue;
    }
    if (!VALUE_FLAGS.includes(flag)) throw new UsageError(`unknown option '${flag}' for ${command}`);
    const value = argv[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    switch (flag) {
      case '--out':
        args.out = value;
        break;
      case '--machine':
        args.machine = value;
        break;
      case '--cores':
        args.cores = parseCores(value);
        break;
      case '--ranks':
        args.ranks = positive(flag, value, 2);
        break;
      case '--iterations':
        args.iterations = positive(flag, value, 1);
        break;
      case '--rounds':
        args.rounds = positive(flag, value, 1);
        break;
      case '--sizes':
        try {
          args.sizes = [...new Set(value.split(',').flatMap((part) => parseSizeSpec(part.trim())))].sort(
            (a, b) => a - b,
          );
        } catch (e) {
          if (e instanceof SizeError) throw new UsageError(`--sizes: ${e.message}`);
          throw e;
        }
        break;
    }
  }
  return args;
}

function positive(flag: string, value: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new UsageError(`${flag} takes a whole number of at least ${min}, got '${value}'`);
  return Number(value);
}

/** "0,1,4-7" */
export function parseCores(value: string): number[] {
  const cores: number[] = [];
  for (const part of value.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
    if (!m) throw new UsageError(`--cores: cannot read '${part}' (write e.g. 0,1,4-7)`);
    const last = m[2] === undefined ? Number(m[1]) : Number(m[2]);
    for (let c = Number(m[1]); c <= last; c++) cores.push(c);
  }
  if (new Set(cores).size !== cores.length)
    throw new UsageError('--cores: a core is listed twice (two ranks on one core would oversubscribe it)');
  return cores;
}
