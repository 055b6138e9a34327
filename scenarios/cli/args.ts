// Command-line parsing. Misuse (unknown command or flag, missing value) is a UsageError: exit code 2.
// node:util's parseArgs splits the arguments into tokens; it runs non-strict because its own errors
// ("Unknown option '--jsno'") cannot suggest the flag that was meant, so each token is checked here.
import { parseArgs as splitArgs } from 'node:util';
import { didYouMean } from '../../common/input-error.ts';
import type { ShardSpec } from '../shard/select.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

export const FORMATS = ['table', 'json', 'csv', 'imb'] as const;
export type Format = (typeof FORMATS)[number];

/** What `run` and `slurm` take alike: how the sweep's points are loaded and simulated. */
export interface SimulationArgs {
  machine?: string;
  seed?: string;
  /** A cell whose mechanism the machine lacks fails the run instead of printing n/a. */
  strict: boolean;
  /** Which machine of an hwloc file that holds several. */
  hwlocMachine?: number;
  /** Simulate every call, even one that starts in an earlier call's state. */
  exact: boolean;
  /** Let steady pipelines advance many chunks in one step (trains). */
  trains: boolean;
}

export interface RunArgs extends SimulationArgs {
  command: 'run';
  file?: string;
  format: Format;
  breakdown: boolean;
  /** Add the memory the library allocated (table: a block per table; CSV: a column). */
  memory: boolean;
  /** How many points run at once (worker threads); absent: the machine's core count. */
  jobs?: number;
  /** Run only this shard of the points and print its partial results (JSON) for `merge`. */
  shard?: ShardSpec;
  /** Also write the run's trace to this file (Chrome trace event format). */
  trace?: string;
}

export interface MergeArgs {
  command: 'merge';
  /** The shard files, in any order. */
  files: string[];
  format: Format;
  breakdown: boolean;
  memory: boolean;
}

/** `intranode slurm`: an sbatch job-array script running a sweep as shards and merging them. */
export interface SlurmArgs extends SimulationArgs {
  command: 'slurm';
  file: string;
  shards: number;
  /** Where the script goes; absent: standard output. */
  out?: string;
  /** The results folder (shards, task logs, report); absent: <scenario name>-shards. */
  dir?: string;
  partition?: string;
  time?: string;
  /** CPUs per array task (`--cpus-per-task`), each shard running that many points at once. */
  cpus: number;
  format: Format;
  breakdown: boolean;
  memory: boolean;
}

export interface MachineShowArgs {
  command: 'machine-show';
  ref: string;
  hwlocMachine?: number;
}

export interface ReproduceArgs {
  command: 'reproduce';
  /** A claim id or a paper (its folder name, such as 000). */
  only?: string;
  json: boolean;
  /** Exit non-zero when a claim marked as expected to pass fails. */
  strict: boolean;
  /** Folder to write the report (README.md and plots) into. */
  report?: string;
  /** Only the claims marked fast. */
  fastOnly: boolean;
  /** Claim ids or scenario file names to leave out. */
  skip?: string[];
  /** How many points run at once (worker threads); absent: the machine's core count. */
  jobs?: number;
}

export type Command =
  | RunArgs
  | MachineShowArgs
  | ReproduceArgs
  | MergeArgs
  | SlurmArgs
  | { command: 'help' }
  | { command: 'version' }
  | { command: 'machines' }
  | { command: 'algorithms'; operation?: string };

const COMMANDS = ['run', 'merge', 'slurm', 'machines', 'machine', 'algorithms', 'reproduce', 'help'];

export interface FlagSpec {
  type: 'string' | 'boolean';
  /** Each use adds to the last (`--skip A --skip B`); any other flag may be given once. */
  repeats?: true;
}

const HWLOC_MACHINE: Record<string, FlagSpec> = { 'hwloc-machine': { type: 'string' } };
const OUTPUT_FLAGS: Record<string, FlagSpec> = {
  format: { type: 'string' },
  json: { type: 'boolean' },
  csv: { type: 'boolean' },
  breakdown: { type: 'boolean' },
  memory: { type: 'boolean' },
};
/** The flags of SimulationArgs. */
const SIMULATION_FLAGS: Record<string, FlagSpec> = {
  machine: { type: 'string' },
  seed: { type: 'string' },
  strict: { type: 'boolean' },
  exact: { type: 'boolean' },
  trains: { type: 'boolean' },
  ...HWLOC_MACHINE,
};
const RUN_FLAGS: Record<string, FlagSpec> = {
  ...SIMULATION_FLAGS,
  ...OUTPUT_FLAGS,
  shard: { type: 'string' },
  jobs: { type: 'string' },
  trace: { type: 'string' },
};

const SLURM_FLAGS: Record<string, FlagSpec> = {
  shards: { type: 'string' },
  out: { type: 'string' },
  dir: { type: 'string' },
  partition: { type: 'string' },
  time: { type: 'string' },
  cpus: { type: 'string' },
  ...OUTPUT_FLAGS,
  ...SIMULATION_FLAGS,
};

const REPRODUCE_FLAGS: Record<string, FlagSpec> = {
  only: { type: 'string' },
  json: { type: 'boolean' },
  strict: { type: 'boolean' },
  report: { type: 'string' },
  fast: { type: 'boolean' },
  skip: { type: 'string', repeats: true },
  jobs: { type: 'string' },
};

export interface Parsed {
  positionals: string[];
  /** Flag name → value (true for a boolean flag), in command-line order. */
  flags: [string, string | true][];
}

/** Every flag of this module's commands. */
const ALL_FLAGS: Record<string, FlagSpec> = { ...RUN_FLAGS, ...SLURM_FLAGS, ...REPRODUCE_FLAGS };

/**
 * Whether `argv` asks for help or the version: `--help`/`-h` or `--version`/`-V` given as an option
 * of its own anywhere, not where a flag of `known` takes its value (`--machine -h` is a flag without
 * its value, refused when the flags are read, not a request for help).
 */
export function asksHelpOrVersion(argv: string[], known: Record<string, FlagSpec>): 'help' | 'version' | undefined {
  const takesValue = (a: string) => a.startsWith('--') && known[a.slice(2)]?.type === 'string';
  const asks = (words: readonly string[]) =>
    argv.some((a, i) => words.includes(a) && !(i > 0 && takesValue(argv[i - 1])));
  if (asks(['--help', '-h'])) return 'help';
  if (asks(['--version', '-V'])) return 'version';
  return undefined;
}

export function parseArgs(argv: string[]): Command {
  const asked = asksHelpOrVersion(argv, ALL_FLAGS);
  if (asked !== undefined) return { command: asked };
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('missing command');
  if (command.startsWith('-')) throw unknownFlag(command, ['--help', '--version']);
  switch (command) {
    case 'run':
      return parseRun(rest);
    case 'help':
      return { command: 'help' };
    case 'machines':
      atMost(tokens(rest, {}).positionals, 0, 'machines');
      return { command: 'machines' };
    case 'machine': {
      const parsed = tokens(rest, HWLOC_MACHINE);
      const [sub, ref] = atMost(parsed.positionals, 2, 'machine');
      if (sub !== 'show') {
        throw new UsageError(
          sub === undefined
            ? "'machine' needs a subcommand: machine show NAME|FILE"
            : `unknown subcommand 'machine ${sub}' (use: machine show NAME|FILE)`,
        );
      }
      if (ref === undefined) throw new UsageError("'machine show' needs a preset name or a machine file");
      const out: MachineShowArgs = { command: 'machine-show', ref };
      for (const [, value] of parsed.flags) out.hwlocMachine = machineIndex(value);
      return out;
    }
    case 'algorithms':
      return { command: 'algorithms', operation: atMost(tokens(rest, {}).positionals, 1, 'algorithms')[0] };
    case 'reproduce':
      return parseReproduce(rest);
    case 'merge':
      return parseMerge(rest);
    case 'slurm':
      return parseSlurm(rest);
    default: {
      const hint = didYouMean(command, COMMANDS);
      throw new UsageError(`unknown command '${command}'${hint ? ` (did you mean '${hint}'?)` : ''}`);
    }
  }
}

/** Splits `args` into positionals and known flags; an unknown flag or a missing value is a UsageError.
 *  Every command's flags are read here (calibrate and validate's too: native-validate/args.ts). */
export function tokens(args: string[], known: Record<string, FlagSpec>): Parsed {
  const { tokens: list } = splitArgs({ args, options: known, strict: false, allowPositionals: true, tokens: true });
  const out: Parsed = { positionals: [], flags: [] };
  const seen = new Set<string>();
  for (const token of list) {
    if (token.kind === 'positional') out.positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const spec = known[token.name];
    if (!spec || !token.rawName.startsWith('--')) {
      throw unknownFlag(token.rawName, [...Object.keys(known).map((k) => `--${k}`), '--help']);
    }
    // A flag given twice would keep one of its values and drop the other without a word.
    if (seen.has(token.name) && !spec.repeats) throw new UsageError(`${token.rawName} is given twice`);
    seen.add(token.name);
    if (spec.type === 'string') {
      // `--trace --json`: the next flag is not this one's value (a value starting with '-' is given
      // as --flag=VALUE).
      const dashed = token.inlineValue === false && token.value?.startsWith('-');
      if (token.value === undefined || token.value === '' || (dashed && token.value.startsWith('--')))
        throw new UsageError(`${token.rawName} needs a value`);
      if (dashed)
        throw new UsageError(
          `${token.rawName} ${token.value}: a value starting with '-' is written ${token.rawName}=${token.value}`,
        );
      out.flags.push([token.name, token.value]);
    } else {
      if (token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
      out.flags.push([token.name, true]);
    }
  }
  return out;
}

function atMost(args: string[], max: number, command: string): string[] {
  if (args.length > max)
    throw new UsageError(
      max === 0
        ? `'${command}' takes options only, got: ${args.join(' ')}`
        : `'${command}' takes at most ${max} argument${max === 1 ? '' : 's'}, got: ${args.join(' ')}`,
    );
  return args;
}

interface Output {
  format: Format;
  breakdown: boolean;
  memory: boolean;
  /** The first output flag given, for errors about flags that do not go together. */
  flag?: string;
}

/** The report's format, --breakdown and --memory from the output flags among `flags`. */
function parseOutput(flags: [string, string | true][]): Output {
  const out: Output = { format: 'table', breakdown: false, memory: false };
  // Which flag chose the format, so two flags that disagree are named in the error.
  let formatFlag: string | undefined;
  const setFormat = (format: Format, flag: string) => {
    if (formatFlag !== undefined && out.format !== format)
      throw new UsageError(`${formatFlag} and ${flag} cannot be used together`);
    out.format = format;
    formatFlag = flag;
    out.flag ??= flag;
  };
  for (const [name, value] of flags) {
    const text = String(value);
    switch (name) {
      case 'json':
      case 'csv':
        setFormat(name, `--${name}`);
        break;
      case 'format': {
        if (!(FORMATS as readonly string[]).includes(text)) {
          const hint = didYouMean(text, FORMATS);
          throw new UsageError(
            `--format must be one of ${FORMATS.join(', ')}, got '${text}'${hint ? ` (did you mean '${hint}'?)` : ''}`,
          );
        }
        setFormat(text as Format, `--format ${text}`);
        break;
      }
      case 'breakdown':
      case 'memory':
        out[name] = true;
        out.flag ??= `--${name}`;
        break;
    }
  }
  // JSON always holds the breakdown and the memory; IMB's layout has no place for them.
  for (const name of ['breakdown', 'memory'] as const)
    if (out[name] && out.format === 'imb') throw new UsageError(`--${name} cannot be used with --format imb`);
  return out;
}

function parseRun(args: string[]): RunArgs {
  const parsed = tokens(args, RUN_FLAGS);
  const output = parseOutput(parsed.flags);
  const out: RunArgs = {
    command: 'run',
    format: output.format,
    breakdown: output.breakdown,
    memory: output.memory,
    ...simulationArgs(parsed.flags),
  };
  for (const [name, value] of parsed.flags) {
    const text = String(value);
    switch (name) {
      case 'jobs':
        out.jobs = jobCount(text);
        break;
      case 'shard':
        out.shard = shardSpec(text);
        break;
      case 'trace':
        out.trace = text;
        break;
    }
  }
  if (out.shard !== undefined && out.trace !== undefined)
    throw new UsageError('--trace writes the trace of a whole run: it cannot be combined with --shard');
  if (out.jobs !== undefined && out.jobs > 1 && out.trace !== undefined)
    throw new UsageError(
      '--trace runs the points one after another in this process: it cannot be combined with --jobs',
    );
  // A shard prints partial results; the report and its format come from `merge`.
  if (out.shard !== undefined && output.flag !== undefined)
    throw new UsageError(`--shard prints partial results: give ${output.flag} to 'intranode merge' instead`);
  if (parsed.positionals.length > 1)
    throw new UsageError(`'run' takes one scenario file, got: ${parsed.positionals.join(' ')}`);
  out.file = parsed.positionals[0];
  return out;
}

function parseMerge(args: string[]): MergeArgs {
  const parsed = tokens(args, OUTPUT_FLAGS);
  const { format, breakdown, memory } = parseOutput(parsed.flags);
  if (parsed.positionals.length === 0)
    throw new UsageError("'merge' needs the shard files written by 'intranode run FILE --shard I/N'");
  return { command: 'merge', files: parsed.positionals, format, breakdown, memory };
}

function parseSlurm(args: string[]): SlurmArgs {
  const parsed = tokens(args, SLURM_FLAGS);
  const { format, breakdown, memory } = parseOutput(parsed.flags);
  const [file, ...extra] = parsed.positionals;
  if (file === undefined) throw new UsageError("'slurm' needs a scenario file: intranode slurm FILE --shards N");
  if (extra.length > 0) throw new UsageError(`'slurm' takes one scenario file, got: ${parsed.positionals.join(' ')}`);
  let shards: number | undefined;
  const out: Omit<SlurmArgs, 'shards'> = {
    command: 'slurm',
    file,
    format,
    breakdown,
    memory,
    cpus: 1,
    ...simulationArgs(parsed.flags),
  };
  for (const [name, value] of parsed.flags) {
    const text = String(value);
    switch (name) {
      case 'shards':
        shards = count(text, '--shards', 'a number of shards');
        break;
      case 'cpus':
        out.cpus = count(text, '--cpus', 'a number of CPUs per task');
        break;
      case 'partition':
        if (!/^[A-Za-z0-9_.-]+$/.test(text))
          throw new UsageError(`--partition needs a SLURM partition name (letters, digits, _ . -), got '${text}'`);
        out.partition = text;
        break;
      case 'time':
        // SLURM's forms: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S.
        if (!/^(\d+-\d+(:\d+){0,2}|\d+(:\d+){0,2})$/.test(text))
          throw new UsageError(`--time needs a SLURM time limit (M, M:S, H:M:S, D-H, D-H:M or D-H:M:S), got '${text}'`);
        out.time = text;
        break;
      case 'out':
        out.out = text;
        break;
      case 'dir':
        out.dir = text;
        break;
    }
  }
  if (shards === undefined) throw new UsageError("'slurm' needs --shards N (how many array tasks)");
  return { ...out, shards };
}

/** SimulationArgs from the flags of SIMULATION_FLAGS among `flags`. */
function simulationArgs(flags: [string, string | true][]): SimulationArgs {
  const out: SimulationArgs = { strict: false, exact: false, trains: false };
  for (const [name, value] of flags) {
    if (name === 'machine') out.machine = String(value);
    if (name === 'seed') out.seed = String(value);
    if (name === 'strict') out.strict = true;
    if (name === 'exact') out.exact = true;
    if (name === 'trains') out.trains = true;
    if (name === 'hwloc-machine') out.hwlocMachine = machineIndex(value);
  }
  return out;
}

/** `I/N`: shard I (from 1) of N. */
function shardSpec(text: string): ShardSpec {
  const m = /^([1-9]\d*)\/([1-9]\d*)$/.exec(text);
  if (m === null) throw new UsageError(`--shard needs I/N (shard I of N, counted from 1), got '${text}'`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (index > count)
    throw new UsageError(`--shard ${text}: there is no shard ${index} of ${count} (I goes from 1 to N)`);
  return { index, count };
}

function parseReproduce(args: string[]): ReproduceArgs {
  const parsed = tokens(args, REPRODUCE_FLAGS);
  atMost(parsed.positionals, 0, 'reproduce');
  const out: ReproduceArgs = { command: 'reproduce', json: false, strict: false, fastOnly: false };
  for (const [name, value] of parsed.flags) {
    if (name === 'only') out.only = String(value);
    if (name === 'report') out.report = String(value);
    if (name === 'json') out.json = true;
    if (name === 'strict') out.strict = true;
    if (name === 'fast') out.fastOnly = true;
    if (name === 'skip')
      out.skip = [
        ...(out.skip ?? []),
        ...String(value)
          .split(',')
          .filter((x) => x !== ''),
      ];
    if (name === 'jobs') out.jobs = jobCount(String(value));
  }
  return out;
}

function jobCount(text: string): number {
  return count(text, '--jobs', 'a number of jobs');
}

/** A positive whole number given to `flag`. */
function count(text: string, flag: string, what: string): number {
  if (!/^[1-9]\d*$/.test(text)) throw new UsageError(`${flag} needs ${what} (1, 2, ...), got '${text}'`);
  return Number(text);
}

/** The machine number of `--hwloc-machine`, as written (a number too large to be exact is refused,
 *  not echoed back rounded). */
export function machineIndex(value: string | true): number {
  const text = String(value);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw new UsageError(`--hwloc-machine needs a machine number (0, 1, ...), got '${text}'`);
  return Number(text);
}

function unknownFlag(flag: string, known: string[]): UsageError {
  const hint = didYouMean(flag, known);
  return new UsageError(`unknown option '${flag}'${hint ? ` (did you mean '${hint}'?)` : ''}`);
}
