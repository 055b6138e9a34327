// `validate --mpi`: the same collectives through the installed Open MPI, with each collective
// component it has (basic, tuned; han and xhc where present) and single-copy CMA on and off (the
// shared-memory BTL's single_copy_mechanism), beside the simulator's prediction for the matching
// algorithms (basic and tuned; the model has no han or xhc, so those rows are measured only).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MachineSpec } from '../../hardware/spec.ts';
import { NativeError, type NativeStats } from '../backend.ts';
import { lineTrip } from '../host-check.ts';
import { COLLECTIVES } from '../cases.ts';
import { nativeRotation, predictNs } from '../predict.ts';
import { smBtlCosts, vaderFastBoxBytes } from '../../sim/kernel/shm/costs.ts';
import { machineOf, type OtherPlacement } from '../placements.ts';
import { measureInRounds, roundText, type InPlacement, type RoundedStats } from '../rounds.ts';
import { row, type Row } from '../validate.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Iterations of the line trip around each launch (each a thousand round trips): a few
 *  milliseconds, against the launch's second or more. */
const TRIP_ITERATIONS = 5;
const SOURCE = join(HERE, 'timing.c');
const BINARY = join(HERE, '..', 'build', 'intranode-mpi-timing');

export interface MpiOptions {
  cores: number[];
  sizes: number[];
  iterations: number;
  /** Times the whole list of runs repeats; each reports its fastest round (../rounds.ts). */
  rounds: number;
  /** The rounds that ran with the cores placed as the constants were fitted in, where known. */
  inPlacement?: InPlacement;
  /** The host's other placement (../placements.ts): a launch none of whose rounds ran in the
   *  fitted one takes its fastest round among those that ran in this one, predicted on its machine. */
  other?: OtherPlacement;
  allowRunAsRoot: boolean;
  /** The largest cache's size as the host reports it: cold runs rotate their buffers over twice
   *  that (the calibrated machine may give the model less, what one process gets of it). */
  llcBytes: number;
  /** Whether CMA works on this host (else only single copy off runs). */
  cma: boolean;
  progress: (what: string) => void;
  notes: string[];
}

/** Collective components tried, in this order, where the installed Open MPI has them. */
const COMPONENTS = ['basic', 'tuned', 'han', 'xhc'];

function run(cmd: string, args: string[]): { ok: boolean; stdout: string; stderr: string } {
  const out = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  return {
    ok: !out.error && out.status === 0,
    stdout: out.stdout ?? '',
    stderr: out.stderr ?? out.error?.message ?? '',
  };
}

function buildTiming(): string {
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= statSync(SOURCE).mtimeMs) return BINARY;
  const cc = run('mpicc', ['-O2', '-o', BINARY, SOURCE]);
  if (!cc.ok) throw new NativeError(`mpicc could not build ${SOURCE}: ${cc.stderr.trim()}`);
  return BINARY;
}

/** The shared-memory BTL and its single-copy parameter, as this Open MPI names them (vader in 4.x, sm in 5.x). */
function singleCopyParameter(): { btl: string; param: string } {
  const info = run('ompi_info', ['--param', 'btl', 'all', '--level', '9']);
  const m = /parameter "btl_(\w+)_single_copy_mechanism"/.exec(info.stdout);
  if (!m)
    throw new NativeError('ompi_info lists no btl_*_single_copy_mechanism parameter: cannot switch CMA on and off');
  return { btl: m[1], param: `btl_${m[1]}_single_copy_mechanism` };
}

/**
 * Which fixed rules the installed Open MPI's tuned component runs (algorithms/collectives/tuned):
 * v1.3-v4.0 had fitted lines ('v4.0'); 4.1 replaced them with per-size tables, the same in every
 * 4.1.x and 5.0.x release ('v4.1').
 */
export function tunedRulesFor(version: string): { rules: 'v4.0' | 'v4.1'; note: string } {
  const m = /(\d+)\.(\d+)/.exec(version);
  if (!m)
    return {
      rules: 'v4.1',
      note: `Open MPI version not recognised in "${version}": tuned rows use the rules of 4.1-5.0`,
    };
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major < 4 || (major === 4 && minor < 1))
    return { rules: 'v4.0', note: `Open MPI ${m[0]}: tuned rows use its fixed rules (those of v1.3-v4.0)` };
  const newer = major > 5 || (major === 5 && minor > 0);
  return {
    rules: 'v4.1',
    note: `Open MPI ${m[0]}: tuned rows use the per-size tables of Open MPI 4.1-5.0${newer ? ', the latest the model has (this release may have changed them)' : ''}`,
  };
}

function collComponents(): string[] {
  const info = run('ompi_info', []);
  const have = new Set([...info.stdout.matchAll(/MCA coll: (\w+)/g)].map((m) => m[1]));
  return COMPONENTS.filter((c) => have.has(c));
}

interface MpiRun {
  component: string;
  cma: boolean;
  /** The collectives one launch measures, one after another (starting a job costs more than
   *  measuring one collective at a few sizes). */
  ops: readonly string[];
  /** Further MCA parameters, as name and value pairs. */
  mca?: [string, string][];
  /** Sizes, when not the test set's. */
  sizes?: readonly number[];
}

/** Open MPI 1.8-4.1's shared-memory BTL, vader, as the model's sm BTL with its fast boxes. */
const VADER = { shm: 'sm', smFastBox: vaderFastBoxBytes } as const;

/**
 * Warm-up calls of the timing program before each operation and size. Each call posts at least
 * two fragments each way between two ranks (its barrier's, then the start time's broadcast and the
 * operation's one way and the reduce of its times the other; timing.c), so by the eighth every pair
 * has posted vader's 16 and set up its fast box (costs.ts, fastBoxThreshold): the measured calls
 * all run with it, as the model's do.
 */
const MPI_WARMUP = 8;

/** The broadcast Open MPI's library work per message is fitted on: below every test size
 *  (cases.ts), one eager fragment each way. */
export const LIBRARY_TRAINING_BYTES = 64;

/** The broadcast its work per later fragment is fitted on: a rendezvous without CMA (its first
 *  fragment, ob1's ACK and one more fragment), between the test sizes (cases.ts). */
export const FOLLOW_TRAINING_BYTES = 8192;

/** One constant of Open MPI's library work, fitted on one basic broadcast without CMA. */
interface SideFit {
  param: 'smSideNs' | 'smFollowSideNs';
  /** What the constant is, for the note. */
  what: string;
  /** The broadcast's size. */
  bytes: number;
}

const SIDE_FITS: readonly SideFit[] = [
  { param: 'smSideNs', what: "per fragment side of a message's first fragment", bytes: LIBRARY_TRAINING_BYTES },
  { param: 'smFollowSideNs', what: 'per side of an ACK or later fragment', bytes: FOLLOW_TRAINING_BYTES },
];

/**
 * Fits Open MPI's library work on the sm BTL, in turn: `kernel.params.smSideNs` (each side of a
 * message's first fragment) so that the model's basic broadcast of LIBRARY_TRAINING_BYTES between
 * the two first cores takes what Open MPI's does (fastest round of `measure`), then
 * `kernel.params.smFollowSideNs` (each side of an ACK or a later fragment, which the first
 * broadcast has none of) on the broadcast of FOLLOW_TRAINING_BYTES. Returns a copy of the machine
 * with both, and the training rows. The model's time grows with each constant, so bisection finds it.
 */
function fitLibraryWork(
  machine: MachineSpec,
  opts: MpiOptions,
  measured: readonly RoundedStats[],
): { spec: MachineSpec; other?: OtherPlacement; rows: Row[]; notes: string[] } {
  const spec = structuredClone(machine);
  // The other placement's machine gets the same fitted values.
  const other = opts.other && { ...opts.other, spec: structuredClone(opts.other.spec) };
  const params = { ...VADER, single: 'none' };
  const rows: Row[] = [];
  const notes: string[] = [];
  SIDE_FITS.forEach((fit, i) => {
    const m = measured[i];
    // The timing program's warm-up sets up every fast box before its measured calls (MPI_WARMUP),
    // so the fit's calls run after as many calls as the fast box's threshold.
    // Fitted on the machine of the placement its round ran in.
    const onto = machineOf(spec, other, m);
    const at = (ns: number) => {
      onto.kernel.params[fit.param] = ns;
      return predictNs(onto, 'bcast:basic', opts.cores, m.bytes, 'off', {
        params,
        warmup: smBtlCosts.fastBoxThreshold,
        mpi: true,
      });
    };
    let lo = 0;
    let hi = 100_000;
    if (at(lo) >= m.medianNs) {
      notes.push(
        `Open MPI's library work ${fit.what} (kernel.params.${fit.param}) not fitted: the model's MPI_bcast of ${m.bytes} B takes ${at(lo).toFixed(0)} ns with none, the host ${m.medianNs.toFixed(0)} ns; left at 0`,
      );
      hi = 0;
    } else {
      // A loaded host can measure more than the first bracket reaches: widen it until it holds.
      while (at(hi) <= m.medianNs && hi < 1e9) {
        lo = hi;
        hi *= 2;
      }
      for (let k = 0; k < 60 && hi - lo > 0.05; k++) {
        const mid = (lo + hi) / 2;
        if (at(mid) > m.medianNs) hi = mid;
        else lo = mid;
      }
      notes.push(
        `Open MPI's library work ${fit.what} (kernel.params.${fit.param}) fitted on MPI_bcast basic of ${m.bytes} B without CMA (training row${onto === spec ? '' : ", its round in the host's other placement, on that machine"}): ${Number(hi.toPrecision(4))} ns`,
      );
    }
    const value = Number(hi.toPrecision(4));
    spec.kernel.params[fit.param] = value;
    if (other) other.spec.kernel.params[fit.param] = value;
    const base = {
      set: 'training' as const,
      name: 'MPI_bcast basic no-cma',
      mechanism: 'mpi shm',
      ranks: opts.cores.length,
      bytes: m.bytes,
      measured: m,
    };
    rows.push(row(base, at(value)));
  });
  return { spec, ...(other ? { other } : {}), rows, notes };
}

/** What --mpi needs before anything is measured: Open MPI's tools, and leave to run as root. */
export function checkMpiReady(allowRunAsRoot: boolean): void {
  for (const tool of ['mpicc', 'mpirun', 'ompi_info'])
    if (!run('sh', ['-c', `command -v ${tool}`]).ok)
      throw new NativeError(`--mpi needs Open MPI: ${tool} not found (Debian: apt install openmpi-bin libopenmpi-dev)`);
  if (process.getuid?.() === 0 && !allowRunAsRoot)
    throw new NativeError('running Open MPI as root needs --allow-run-as-root (mpirun refuses root otherwise)');
}

export function mpiRows(machine: MachineSpec, opts: MpiOptions): Row[] {
  let spec = machine;
  checkMpiReady(opts.allowRunAsRoot);
  const root = process.getuid?.() === 0;
  const binary = buildTiming();
  const { btl, param } = singleCopyParameter();
  const components = collComponents();
  opts.notes.push(
    `Open MPI: components ${components.join(', ')}; CMA switched with ${param}; han and xhc rows have no model counterpart`,
  );
  const tuned = tunedRulesFor(run('ompi_info', ['--version']).stdout);
  opts.notes.push(tuned.note);
  const llc = opts.llcBytes;
  const mpirun = (r: MpiRun, sizes: readonly number[]) => {
    const args = [
      ...(root ? ['--allow-run-as-root'] : []),
      '--nooversubscribe',
      '-np',
      String(opts.cores.length),
      '--cpu-set',
      opts.cores.join(','),
      '--bind-to',
      'core',
      '--mca',
      'btl',
      `${btl},self`,
      '--mca',
      param,
      r.cma ? 'cma' : 'none',
      '--mca',
      'coll',
      `${r.component === 'basic' ? '' : `${r.component},`}basic,self,libnbc`,
      ...(r.component === 'han' ? ['--mca', 'coll_han_priority', '100'] : []),
      ...(r.component === 'xhc' ? ['--mca', 'coll_xhc_priority', '100'] : []),
      ...(r.mca ?? []).flatMap(([name, value]) => ['--mca', name, value]),
      binary,
      r.ops.join(','),
      sizes.join(','),
      String(opts.iterations),
      String(MPI_WARMUP),
      String(llc),
    ];
    // The native line trip between the first two cores right before and right after the launch,
    // as every native case measures its own (src/measure.c): where the host placed the two cores.
    const trip = () => (opts.cores.length >= 2 ? lineTrip(opts.cores, TRIP_ITERATIONS).results[0].medianNs : undefined);
    const before = trip();
    const out = run('mpirun', args);
    if (!out.ok) throw new NativeError(`mpirun ${args.join(' ')} failed: ${out.stderr.trim().slice(0, 800)}`);
    const after = trip();
    const results = (JSON.parse(out.stdout) as { results: MpiStats[] }).results;
    return before === undefined || after === undefined
      ? results
      : results.map((r) => ({ ...r, tripBeforeNs: before, tripNs: after }));
  };
  const rows: Row[] = [];
  // Training: Open MPI's own work per fragment, from two broadcasts none of the test rows repeats.
  // They are measured in the same rounds as the test launches, so that their fastest round is
  // taken over the same stretch of the host's time as the test rows' (a virtual machine's speed
  // drifts from minute to minute, and a fit on a slow minute would misjudge every row).
  const training: MpiRun = { component: 'basic', cma: false, ops: ['bcast'], sizes: SIDE_FITS.map((f) => f.bytes) };
  // One launch per component and CMA setting measures every collective at every size.
  const runs: MpiRun[] = components.flatMap((component) =>
    (opts.cma ? [true, false] : [false]).map((cma) => ({ component, cma, ops: COLLECTIVES })),
  );
  const [trained, ...measured] = measureInRounds(
    opts.rounds,
    [training, ...runs],
    (r, round) => {
      opts.progress(
        r === training
          ? `mpi: training, MPI_bcast of ${training.sizes!.join(' and ')} B${roundText(round, opts.rounds)}`
          : `mpi: ${r.ops.map((op) => `MPI_${op}`).join(', ')} with coll ${r.component}, single copy ${r.cma ? 'cma' : 'none'}${roundText(round, opts.rounds)}`,
      );
      return mpirun(r, r.sizes ?? opts.sizes);
    },
    opts,
  );
  const library = fitLibraryWork(spec, opts, ofOperation(trained, 0, SIDE_FITS.length, 'bcast'));
  rows.push(...library.rows);
  opts.notes.push(...library.notes);
  spec = library.spec;
  const other = library.other;
  runs.forEach(({ component, cma, ops }, i) => {
    const params = {
      ...VADER,
      single: cma ? 'cma' : 'none',
      ...(component === 'tuned' ? { rules: tuned.rules } : {}),
    };
    ops.forEach((op, j) => {
      const algorithm = component === 'basic' || component === 'tuned' ? `${op}:${component}` : undefined;
      for (const m of ofOperation(measured[i], j, opts.sizes.length, op)) {
        rows.push(
          row(
            {
              set: 'test',
              name: `MPI_${op} ${component} ${cma ? 'cma' : 'no-cma'}`,
              mechanism: `mpi ${cma ? 'cma' : 'shm'}`,
              ranks: opts.cores.length,
              bytes: m.bytes,
              measured: m,
            },
            algorithm
              ? predictNs(machineOf(spec, other, m), algorithm, opts.cores, m.bytes, 'off', {
                  params,
                  mpi: true,
                  calls: {
                    iterations: opts.iterations,
                    warmup: MPI_WARMUP,
                    rotation: nativeRotation(op, m.bytes, opts.cores.length, opts.llcBytes),
                  },
                })
              : undefined,
          ),
        );
      }
    });
  });
  rows.push(...fragmentProbes(spec, { ...opts, ...(other ? { other } : {}) }, btl, mpirun));
  return rows;
}

/** Operations the fragment probes run: one sender and one receiver, and both at once. */
const PROBE_OPS = ['bcast', 'alltoall'];

/**
 * What Open MPI's rendezvous pipeline does on this host, measured after the test rows at their
 * largest size, basic without CMA, in rounds of their own: the defaults, ob1's pipeline depth
 * raised from 3 to 64, so that the sender
 * runs ahead through as many fresh fragments as it needs, and raised with the BTL's fragments
 * capped at 8 (`btl_<btl>_free_list_max`), so that it runs ahead but the same few fragments cycle
 * between the two cores as at depth 3. The model predicts the first (`smPipelineDepth`); it has no
 * cap on the free list, so not the second. Probe rows count in no error summary.
 */
function fragmentProbes(
  spec: MachineSpec,
  opts: MpiOptions,
  btl: string,
  mpirun: (r: MpiRun, sizes: number[]) => NativeStats[],
): Row[] {
  const bytes = Math.max(...opts.sizes);
  const settings: { name: string; mca: [string, string][]; depth?: number }[] = [
    // The library's defaults again, measured in the same rounds as the settings beside it.
    { name: 'default', mca: [], depth: smBtlCosts.sendPipelineDepth },
    { name: 'depth 64', mca: [['pml_ob1_send_pipeline_depth', '64']], depth: 64 },
    {
      name: 'depth 64, 8 fragments',
      mca: [
        ['pml_ob1_send_pipeline_depth', '64'],
        [`btl_${btl}_free_list_max`, '8'],
      ],
    },
  ];
  // One launch per setting measures both operations.
  const measured = measureInRounds(
    opts.rounds,
    settings,
    (setting, round) => {
      opts.progress(
        `mpi: probe, ${PROBE_OPS.map((op) => `MPI_${op}`).join(', ')} basic without CMA, ${setting.name}${roundText(round, opts.rounds)}`,
      );
      return mpirun({ component: 'basic', cma: false, ops: PROBE_OPS, mca: setting.mca }, [bytes]);
    },
    opts,
  );
  return PROBE_OPS.flatMap((op, j) =>
    settings.map((setting, i) => {
      const m = ofOperation(measured[i], j, 1, op)[0];
      return row(
        {
          set: 'probe',
          name: `MPI_${op} basic no-cma, ${setting.name}`,
          mechanism: 'mpi shm',
          ranks: opts.cores.length,
          bytes,
          measured: m,
        },
        setting.depth === undefined
          ? undefined
          : predictNs(machineOf(spec, opts.other, m), `${op}:basic`, opts.cores, bytes, 'off', {
              params: { ...VADER, single: 'none', smPipelineDepth: setting.depth },
              mpi: true,
            }),
      );
    }),
  );
}

/** One result of the timing program: native statistics, and the operation they are of. */
type MpiStats = RoundedStats & { op?: string };

/**
 * The results of the `index`th operation of a launch (`sizes` of them, after those of the
 * operations before it), checked against the operation the timing program names in each.
 */
function ofOperation(results: readonly MpiStats[], index: number, sizes: number, op: string): RoundedStats[] {
  const mine = results.slice(index * sizes, (index + 1) * sizes);
  if (mine.length !== sizes)
    throw new NativeError(`the MPI timing program gave ${mine.length} results for MPI_${op}, expected ${sizes}`);
  return mine.map(({ op: named, ...stats }) => {
    if (named !== op)
      throw new NativeError(
        `the MPI timing program's results are out of order: expected MPI_${op}, found ${named ?? 'none'}`,
      );
    return stats;
  });
}
