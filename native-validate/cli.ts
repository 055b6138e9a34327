// `intranode calibrate` and `intranode validate`. Exit status: 0 success, 1 invalid input (a machine
// file, cores the host lacks), 2 invalid command line, 3 internal error, 5 the native backend failed
// (no C compiler, a rank failed, CMA refused where it was required, Open MPI missing for --mpi).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatBytes } from '../common/bytes.ts';
import { InputError } from '../common/input-error.ts';
import { checkOutputPath, writeOutputFile } from '../common/write-output-file.ts';
import { resolveMachine } from '../hardware/index.ts';
import type { MachineSpec } from '../hardware/spec.ts';
import { HELP } from '../scenarios/cli/help.ts';
import { reportError, version } from '../scenarios/cli/main.ts';
import { asksNativeHelpOrVersion, DEFAULT_ITERATIONS, parseNativeArgs, type NativeArgs } from './args.ts';
import { NativeError, probeNative, type NativeRun, type ProbeResult } from './backend.ts';
import { calibrate, calibrationFile, type Calibration } from './calibrate.ts';
import { DEFAULT_TEST_SIZES, testCases } from './cases.ts';
import { detectThisHost } from './host.ts';
import { checkMpiReady, mpiRows } from './mpi/run-mpi.ts';
import { buildReport, formatReport, worstMechanism, type Report } from './report.ts';
import { caseRows, coldOrderRows, firstAccessRows, targetInKernelRows, trainingRows, type Row } from './validate.ts';
import { checkHost, claimsRing, hostCheckText, lineTrip, samePlacement, type HostCheck } from './host-check.ts';
import { describedPlacementNs, otherPlacement, otherPlacementText } from './placements.ts';

export interface NativeCliEnv {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

const defaultEnv = (): NativeCliEnv => ({
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
});

export const NATIVE_COMMANDS = ['calibrate', 'validate'];

/** The launcher awaits every command's main; these two run synchronously. */
export function nativeMain(argv: string[], overrides: Partial<NativeCliEnv> = {}): Promise<number> {
  return Promise.resolve(nativeCommand(argv, overrides));
}

function nativeCommand(argv: string[], overrides: Partial<NativeCliEnv>): number {
  const env = { ...defaultEnv(), ...overrides };
  try {
    const asked = asksNativeHelpOrVersion(argv);
    if (asked !== undefined) {
      env.stdout(asked === 'help' ? HELP : `intranode ${version()}\n`);
      return 0;
    }
    const args = parseNativeArgs(argv);
    return args.command === 'calibrate' ? calibrateCommand(args, env) : validateCommand(args, env, argv);
  } catch (e) {
    if (e instanceof NativeError) {
      env.stderr(`intranode: ${e.message}\n`);
      return 5;
    }
    return reportError(e, env.stderr);
  }
}

function chooseCores(spec: MachineSpec, args: NativeArgs): number[] {
  const known = spec.cores.map((c) => c.id);
  const cores = args.cores ?? known;
  for (const c of cores)
    if (!known.includes(c))
      throw new InputError(`core ${c} does not exist on this host (cores: ${known.join(', ')})`, { field: '--cores' });
  if (args.ranks !== undefined && args.ranks > cores.length)
    throw new InputError(
      `${args.ranks} ranks on ${cores.length} cores would oversubscribe them; refused (one rank per core)`,
      { field: '--ranks' },
    );
  return cores;
}

const progress = (env: NativeCliEnv) => (what: string) => env.stderr(`intranode: ${what}\n`);

function runCalibration(args: NativeArgs, env: NativeCliEnv, spec: MachineSpec, cores: number[]): Calibration {
  return calibrate(spec, {
    cores,
    iterations: args.iterations,
    ...(args.offCache !== undefined ? { offCacheBytes: args.offCache } : {}),
    progress: progress(env),
  });
}

const MACHINE_FILE = 'the machine file';

function calibrateCommand(args: NativeArgs, env: NativeCliEnv): number {
  const host = detectThisHost();
  const cores = chooseCores(host.spec, args);
  // Before minutes of measuring, not after.
  const out = resolve(env.cwd, args.out ?? 'host-calibrated.yaml');
  checkOutputPath(out, MACHINE_FILE, '--out');
  const cal = runCalibration(args, env, host.spec, cores);
  const command = `intranode calibrate${args.cores ? ` --cores ${cores.join(',')}` : ''}${args.iterations !== DEFAULT_ITERATIONS ? ` --iterations ${args.iterations}` : ''}`;
  writeOutputFile(out, calibrationFile(cal, host.via, command), MACHINE_FILE, '--out');
  // The file must load as any machine file does.
  resolveMachine(out);
  if (args.json) {
    env.stdout(
      JSON.stringify({ machineFile: out, fitted: cal.fitted, unfitted: cal.unfitted, notes: cal.notes }, null, 2) +
        '\n',
    );
  } else {
    for (const f of cal.fitted) env.stdout(`${f.field} = ${f.value}\n    ${f.source}\n`);
    for (const u of cal.unfitted) env.stdout(`not fitted: ${u}\n`);
    for (const n of cal.notes) env.stdout(`note: ${n}\n`);
    env.stdout(`machine file: ${out} (use it with intranode run --machine ${out})\n`);
  }
  return 0;
}

/** The cache size every cold case's rotation exceeds twice, natively and through Open MPI alike,
 *  and where it came from. */
function offCacheSize(args: NativeArgs, probe: ProbeResult): { bytes: number; source: string } {
  if (args.offCache !== undefined) return { bytes: args.offCache, source: 'given with --off-cache' };
  const source =
    probe.llcSource === 'sysfs'
      ? 'the largest cache sysfs lists for cpu0'
      : "the native backend's default: sysfs lists no cache for cpu0";
  return { bytes: probe.llcBytes, source };
}

/** The 1, 5 and 15 minute load averages: how much else the host was running. */
function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
}

function validateCommand(args: NativeArgs, env: NativeCliEnv, argv: string[]): number {
  const loadAtStart = loadAverage();
  const host = detectThisHost();
  const cores = chooseCores(host.spec, args);
  if (cores.length < 2)
    throw new InputError('validation needs at least two cores (one rank per core)', { field: '--cores' });
  // What would otherwise fail only after every native case has run.
  const out = args.out === undefined ? undefined : resolve(env.cwd, args.out);
  if (out !== undefined) checkOutputPath(out, MACHINE_FILE, '--out');
  if (args.mpi) checkMpiReady(args.allowRunAsRoot);
  const notes: string[] = [];
  let spec: MachineSpec;
  let rows: Row[] = [];
  let machine: string;
  let cma: boolean;
  let fitted: Pick<Report, 'fitted' | 'unfitted'> = {};
  let lines: NativeRun | undefined;
  let ring: NativeRun | undefined;
  const probe = probeNative(cores);
  const offCache = offCacheSize(args, probe);
  if (args.machine) {
    spec = resolveMachine(args.machine, {
      baseDir: env.cwd,
      ...(args.hwlocMachine !== undefined ? { hwlocMachine: args.hwlocMachine } : {}),
    });
    machine = `${args.machine} (given; its training cases are not re-run)`;
    // CMA cases need it on both sides: the host to measure them, the machine to predict them.
    cma = probe.cma === 'ok' && spec.kernel.mechanisms.cma;
    progress(env)('host check: a cache line passed between two cores');
    lines = lineTrip(cores, args.iterations);
    if (cores.length >= 2) {
      progress(env)("host check: stores into the double copy's ring just read by another core");
      ring = claimsRing(cores, args.iterations);
    }
    if (probe.cma !== 'ok')
      notes.push(`CMA refused by the kernel (${probe.cma}: ${probe.cmaError}): CMA cases skipped`);
    else if (!cma) notes.push(`the machine ${spec.name} has no CMA, so nothing predicts the CMA cases: skipped`);
  } else {
    const cal = runCalibration(args, env, host.spec, cores);
    spec = cal.spec;
    notes.push(...cal.notes);
    rows = trainingRows(cal);
    lines = cal.data.lines;
    ring = cal.data.claims;
    fitted = { fitted: cal.fitted, unfitted: cal.unfitted };
    cma = cal.spec.kernel.mechanisms.cma;
    machine = 'calibrated in this run on the training set (rows marked training)';
    if (out !== undefined) {
      writeOutputFile(out, calibrationFile(cal, host.via, 'intranode validate'), MACHINE_FILE, '--out');
      machine += `, saved as ${out}`;
    }
  }
  const ranks = args.ranks ?? cores.length;
  const sizes = args.sizes ?? DEFAULT_TEST_SIZES;
  const cases = testCases({ cores, ranks, sizes, cma });
  // Each case's fastest round among those run with the cores placed as the machine describes them:
  // the training's line trip when the run calibrates; with a given machine, the trip measured at the
  // start where the host began in the machine's placement, else the machine's own (placements.ts).
  const placementNs =
    lines &&
    (args.machine ? describedPlacementNs(spec, lines.cores, lines.results[0].medianNs) : lines.results[0].medianNs);
  const inPlacement = placementNs !== undefined ? samePlacement(placementNs) : undefined;
  // Where none did, among those run in the host's other placement, predicted on its machine.
  const other = otherPlacement(spec, lines?.cores ?? [], placementNs);
  const measuring = {
    iterations: args.iterations,
    rounds: args.rounds,
    inPlacement,
    ...(other ? { other } : {}),
    offCacheBytes: offCache.bytes,
    progress: progress(env),
  };
  rows.push(...caseRows(spec, cases, measuring));
  rows.push(...coldOrderRows(spec, cores.slice(0, ranks), sizes, measuring));
  if (cma && ranks >= 2) rows.push(...firstAccessRows(spec, cores, measuring), ...targetInKernelRows(cores, measuring));
  if (args.mpi)
    rows.push(
      ...mpiRows(spec, {
        cores: cores.slice(0, ranks),
        sizes,
        iterations: args.iterations,
        rounds: args.rounds,
        inPlacement,
        ...(other ? { other } : {}),
        llcBytes: offCache.bytes,
        allowRunAsRoot: args.allowRunAsRoot,
        cma,
        progress: progress(env),
        notes,
      }),
    );
  // The first line trip again: whether the host is still the one the run began on.
  let hostCheck: HostCheck | undefined;
  if (lines) {
    progress(env)(
      `host check: a cache line passed between two cores${ring ? ", and the double copy's ring" : ''}, again`,
    );
    hostCheck = checkHost({ lines, ring }, args.iterations);
    notes.push(hostCheckText(hostCheck));
  }
  const loadAtEnd = loadAverage();
  const busiest = Math.max(...[loadAtStart, loadAtEnd].map((l) => Number(l.split(' ')[0])));
  if (busiest > cores.length)
    notes.push(
      `the host was busy: a load average up to ${busiest} on ${cores.length} cores, so other work shared the cores measured and the measurements include its interference`,
    );
  const report: Report = buildReport({
    host: {
      name: host.spec.name,
      description: host.spec.description,
      via: host.via,
      kernel: host.spec.kernel.version,
      cores,
    },
    load: { start: loadAtStart, end: loadAtEnd },
    command: ['intranode', ...argv].join(' '),
    ...fitted,
    machine,
    native: {
      iterations: args.iterations,
      rounds: args.rounds,
      warmup: 2,
      cache: `test cases cold: each rank's buffers rotated over more than twice ${formatBytes(offCache.bytes)} (${offCache.source}), as IMB -off_cache`,
    },
    notes,
    ...(hostCheck ? { hostCheck } : {}),
    ...(placementNs !== undefined ? { placementNs } : {}),
    ...(other && lines
      ? { otherPlacement: { tripNs: other.tripNs, description: otherPlacementText(other, lines.cores) } }
      : {}),
    rows,
  });
  if (args.json) {
    env.stdout(JSON.stringify(report, null, 2) + '\n');
  } else {
    env.stdout(formatReport(report));
    // Said again last, beside the verdict it puts in doubt.
    if (hostCheck?.changed) env.stdout(`# ${hostCheckText(hostCheck)}\n`);
    const worst = worstMechanism(report);
    if (report.summary.test.targetMet === false && worst)
      env.stdout(
        `# Largest errors: ${worst.mechanism} (median |error| ${worst.summary.medianAbsErrorPct}%); see docs/validation.md for what its model lacks\n`,
      );
  }
  return 0;
}
