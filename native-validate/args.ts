// Command line of `intranode calibrate` and `intranode validate`.
import { asksHelpOrVersion, machineIndex, tokens, UsageError, type FlagSpec } from '../scenarios/cli/args.ts';
import { MAX_CALLS } from '../scenarios/loader.ts';
import { parseSize, parseSizeSpec, SizeError } from '../scenarios/sizes.ts';
import { DEFAULT_ROUNDS } from './rounds.ts';
import { isHwlocExport } from '../common/paths.ts';

export interface NativeArgs {
  command: 'calibrate' | 'validate';
  out?: string;
  machine?: string;
  /** With an hwloc file of several machines as --machine: which one (from 0). */
  hwlocMachine?: number;
  cores?: number[];
  ranks?: number;
  sizes?: number[];
  iterations: number;
  /** Rounds of the test set (validate): each case reports its fastest round among those placed as
   *  at the start (rounds.ts). */
  rounds: number;
  json: boolean;
  mpi: boolean;
  allowRunAsRoot: boolean;
  /** The cache size cold runs' buffers rotate over twice (validate's test cases, the cold CMA
   *  training sweep; IMB's -off_cache cache_size): the backend's detection when not given. */
  offCache?: number;
}

const value: FlagSpec = { type: 'string' };
const onOff: FlagSpec = { type: 'boolean' };
const FLAGS: Record<string, FlagSpec> = {
  out: value,
  machine: value,
  'hwloc-machine': value,
  cores: value,
  ranks: value,
  sizes: value,
  iterations: value,
  rounds: value,
  json: onOff,
  mpi: onOff,
  'allow-run-as-root': onOff,
  'off-cache': value,
};
const VALIDATE_ONLY = ['machine', 'hwloc-machine', 'ranks', 'sizes', 'rounds', 'mpi', 'allow-run-as-root'];

/** Native iterations per size by default: enough for a stable median on a quiet host. */
export const DEFAULT_ITERATIONS = 20;

/** What the native program takes (src/native.h): MAX_SIZES sizes; core ids as Linux numbers them
 *  (at most CONFIG_NR_CPUS, 8192). */
const MAX_SIZES = 64;
const MAX_CORE_ID = 8191;
/** Each rank allocates several buffers of every size (rotated over twice the last-level cache when
 *  cold): a message above this is a typo more often than a test. */
const MAX_SIZE_BYTES = 1 << 30;
const MAX_ROUNDS = 100;

/** A cache size for --off-cache: one size, above 0, at most MAX_SIZE_BYTES (every rank allocates
 *  more than twice it for each size measured cold). */
function offCacheBytes(value: string): number {
  let bytes: number;
  try {
    bytes = parseSize(value.trim());
  } catch (e) {
    if (e instanceof SizeError) throw new UsageError(`--off-cache: ${e.message}`);
    throw e;
  }
  if (bytes <= 0) throw new UsageError(`--off-cache: a cache size above 0 bytes, got '${value}'`);
  if (bytes > MAX_SIZE_BYTES)
    throw new UsageError(
      `--off-cache: at most 1 GiB (each rank allocates more than twice it for every size measured cold), got ${bytes} bytes`,
    );
  return bytes;
}

/** Whether the command line asks for help or the version, as the other commands read it
 *  (`--cores -h` is --cores without its value, not a request for help). */
export function asksNativeHelpOrVersion(argv: string[]): 'help' | 'version' | undefined {
  return asksHelpOrVersion(argv, FLAGS);
}

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
  const parsed = tokens(argv.slice(1), FLAGS);
  if (parsed.positionals.length > 0)
    throw new UsageError(`'${command}' takes options only, got: ${parsed.positionals.join(' ')}`);
  for (const [name, value] of parsed.flags) {
    const flag = `--${name}`;
    if (command === 'calibrate' && VALIDATE_ONLY.includes(name))
      throw new UsageError(`${flag} belongs to validate, not calibrate`);
    if (value === true) {
      if (name === 'json') args.json = true;
      if (name === 'mpi') args.mpi = true;
      if (name === 'allow-run-as-root') args.allowRunAsRoot = true;
      continue;
    }
    switch (flag) {
      case '--out':
        args.out = value;
        break;
      case '--machine':
        args.machine = value;
        break;
      case '--hwloc-machine':
        args.hwlocMachine = machineIndex(value);
        break;
      case '--cores':
        args.cores = parseCores(value);
        break;
      case '--ranks':
        args.ranks = positive(flag, value, 2, MAX_CORE_ID + 1);
        break;
      case '--iterations':
        args.iterations = positive(flag, value, 1, MAX_CALLS);
        break;
      case '--rounds':
        args.rounds = positive(flag, value, 1, MAX_ROUNDS);
        break;
      case '--off-cache':
        args.offCache = offCacheBytes(value);
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
        if (args.sizes.length > MAX_SIZES)
          throw new UsageError(
            `--sizes: at most ${MAX_SIZES} sizes (the native program's limit), got ${args.sizes.length}`,
          );
        if (args.sizes.some((b) => b > MAX_SIZE_BYTES))
          throw new UsageError(
            `--sizes: at most 1 GiB a message (each rank allocates several buffers of every size), got ${Math.max(...args.sizes)} bytes`,
          );
        break;
    }
  }
  if (args.hwlocMachine !== undefined && args.machine === undefined)
    throw new UsageError('--hwloc-machine picks a machine of the hwloc file given with --machine; give --machine FILE');
  // As run and machine show refuse it: a preset or machine file has one machine to pick.
  if (args.hwlocMachine !== undefined && args.machine !== undefined && !isHwlocExport(args.machine))
    throw new UsageError(`--hwloc-machine picks a machine of an hwloc XML file, and '${args.machine}' is not one`);
  if (args.allowRunAsRoot && !args.mpi)
    throw new UsageError(
      '--allow-run-as-root goes with --mpi (it lets Open MPI run as root); without --mpi it does nothing',
    );
  if (args.out !== undefined && args.machine !== undefined)
    throw new UsageError(
      '--out saves the machine validate calibrates; with --machine nothing is calibrated, so there is nothing to save',
    );
  return args;
}

/** `value` of `flag` as a whole number within [min, max], or a usage error saying so. */
export function positive(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max.toLocaleString('en-US')}, got '${value}'`);
  return Number(value);
}

/** "0,1,4-7" */
export function parseCores(value: string): number[] {
  const cores: number[] = [];
  for (const part of value.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
    if (!m) throw new UsageError(`--cores: cannot read '${part}' (write e.g. 0,1,4-7)`);
    const first = Number(m[1]);
    const last = m[2] === undefined ? first : Number(m[2]);
    if (last < first)
      throw new UsageError(`--cores: the range '${part.trim()}' runs backwards (write ${last}-${first})`);
    if (last > MAX_CORE_ID)
      throw new UsageError(`--cores: core ${last} is past any Linux core number (at most ${MAX_CORE_ID})`);
    for (let c = first; c <= last; c++) cores.push(c);
  }
  if (new Set(cores).size !== cores.length)
    throw new UsageError('--cores: a core is listed twice (two ranks on one core would oversubscribe it)');
  return cores;
}
