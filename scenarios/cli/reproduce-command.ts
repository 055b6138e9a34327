// `intranode reproduce`: runs the seeds' claims and prints one row per claim. Takes options that
// are already parsed; a wrong claims file or `--only` throws InputError, as the other commands do.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { InputError } from '../../common/input-error.ts';
import { recordedHash } from '../reproduce/report/suite-hash.ts';
import { writeOutput } from '../../common/write-output-file.ts';
import { formatClaimsJson, formatClaimsTable } from '../reproduce/claims-table.ts';
import { writeReport } from '../reproduce/report/write-report.ts';
import { regressions, runClaims, type ScenarioRunner } from '../reproduce/run-claims.ts';
import { simulateScenarioFile } from '../reproduce/scenario-adapter.ts';
import { loadSuite, PAPERS_DIR, selectClaims } from '../reproduce/suite.ts';
import { UsageError } from './args.ts';
import { defaultEnv, type CliEnv } from './env.ts';

export interface ReproduceOptions {
  /** A claim id, or a paper (its folder name such as 000, or its seed file). */
  only?: string;
  json: boolean;
  /** Exit non-zero when a claim marked `expect: pass` fails. */
  strict: boolean;
  /** Folder to write README.md and the plots into. */
  report?: string;
  /** Only the claims marked `fast` (what CI affords). */
  fastOnly?: boolean;
  /** Claim ids or scenario file names left out (slow ones); a report lists their claims as not run. */
  skip?: string[];
  /** Points simulated at once on worker threads; absent: the machine's core count. */
  jobs?: number;
}

/** The CLI's own output and clock, plus where the papers are and how a scenario is simulated. */
export interface ReproduceIO extends Pick<
  CliEnv,
  'stdout' | 'stderr' | 'stderrIsTTY' | 'now' | 'defaultJobs' | 'loadWorkers'
> {
  papersDir: string;
  runScenario: ScenarioRunner;
}

/** A claim expected to pass failed under `--strict`. */
export const EXIT_REGRESSION = 4;

export function defaultReproduceIO(): ReproduceIO {
  const env = defaultEnv();
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    now: () => performance.now(),
    defaultJobs: env.defaultJobs,
    loadWorkers: env.loadWorkers,
    papersDir: PAPERS_DIR,
    runScenario: simulateScenarioFile,
  };
}

export async function reproduceCommand(
  opts: ReproduceOptions,
  io: ReproduceIO = defaultReproduceIO(),
): Promise<number> {
  const papers = loadSuite(io.papersDir);
  // The report's folder is checked before the claims run for minutes, not when it is written.
  if (opts.report !== undefined) checkReportFolder(opts.report);
  const claims = commandLine(() => selectClaims(papers, { only: opts.only, fastOnly: opts.fastOnly, skip: opts.skip }));
  if (claims.length === 0) {
    const given = [
      ...(opts.only !== undefined ? [`--only ${opts.only}`] : []),
      ...(opts.fastOnly ? ['--fast'] : []),
      ...(opts.skip?.length ? [`--skip ${opts.skip.join(',')}`] : []),
    ];
    throw new UsageError(`${given.join(' with ')} leave${given.length === 1 ? 's' : ''} no claim to run`);
  }
  const jobs = opts.jobs ?? io.defaultJobs;
  // Scenarios run one after another and each one's points on the pool, so the output is that of one job.
  const runBatch = jobs > 1 ? await io.loadWorkers(jobs) : undefined;
  const runScenario: ScenarioRunner = (file, onProgress) => io.runScenario(file, onProgress, runBatch);
  let scenarioLabel = '';
  let drawn = false;
  const run = await runClaims(claims, runScenario, io.now, {
    scenarioStart: (file, index, count) => {
      scenarioLabel = `[${index + 1}/${count}] ${relative(io.papersDir, file)}`;
    },
    points: (done, total) => {
      if (!io.stderrIsTTY) return;
      io.stderr(`\r${scenarioLabel}: ${done}/${total} points   `);
      drawn = true;
    },
  });
  if (drawn) io.stderr(`\r${' '.repeat(scenarioLabel.length + 30)}\r`);
  io.stdout(opts.json ? formatClaimsJson(run) : formatClaimsTable(run));
  // The wall time is for a person watching; piped output stays the same from run to run.
  if (io.stderrIsTTY) io.stderr(`reproduce: ${run.scenarios.length} scenarios in ${run.seconds.toFixed(1)} s\n`);
  if (opts.report !== undefined) {
    const dir = opts.report;
    const written = writeOutput(dir, 'the report', '--report', () =>
      writeReport(dir, papers, run, { papersDir: io.papersDir }),
    );
    io.stderr(`reproduce: wrote ${written}\n`);
  }
  if (opts.strict && regressions(run.results).length > 0) {
    for (const r of regressions(run.results))
      io.stderr(
        r.outcome.status === 'INPUT'
          ? `reproduce: input ${r.claim.id} was expected inside its range and lies outside it (${r.outcome.simulated})\n`
          : `reproduce: ${r.claim.id} was expected to pass and fails (${r.outcome.simulated})\n`,
      );
    return EXIT_REGRESSION;
  }
  return 0;
}

/** Throws now what writing the report into `dir` would: a file where the folder, its plots folder or
 *  its README.md goes (or anywhere up its path), a folder in place of README.md; and a README.md
 *  that is not a report this command wrote, which it would replace. (Permissions are only known by
 *  writing.) */
function checkReportFolder(dir: string): void {
  const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();
  const blocked = (p: string, folder: boolean) =>
    existsSync(p) && isDir(p) !== folder
      ? new InputError(
          `cannot write the report: ${p} is ${folder ? 'a file, where a folder goes' : 'a folder, where the README goes'}`,
          { file: dir, field: '--report' },
        )
      : undefined;
  // The report's folders are made below the nearest part of DIR's path that exists: it must be one.
  let nearest = resolve(dir);
  while (!existsSync(nearest) && dirname(nearest) !== nearest) nearest = dirname(nearest);
  const readme = join(dir, 'README.md');
  const problem =
    blocked(nearest === resolve(dir) ? dir : nearest, true) ??
    blocked(join(dir, 'plots'), true) ??
    blocked(readme, false);
  if (problem) throw problem;
  if (existsSync(readme) && !isReport(readme))
    throw new InputError(
      `${readme} is not a report this command wrote (it records no claims-sha256 hash), and writing the report would replace it: choose another folder`,
      { file: dir, field: '--report' },
    );
}

/** Whether `path` is a report the reproduce command wrote: its header carries the claims' hash. */
function isReport(path: string): boolean {
  return recordedHash(readFileSync(path, 'utf8')) !== undefined;
}

/** Runs `select`, turning its refusal of an --only or --skip value into a usage error (exit 2): the
 *  command line named it, not a file. */
function commandLine<T>(select: () => T): T {
  try {
    return select();
  } catch (e) {
    const field = e instanceof InputError ? e.location.field : undefined;
    if (e instanceof InputError && (field === '--only' || field === '--skip'))
      throw new UsageError(`${field}: ${e.detail}`);
    throw e;
  }
}
