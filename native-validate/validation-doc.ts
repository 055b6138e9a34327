// Writes docs/validation.md from a run of `intranode validate` on this host: the host, the command,
// the fitted constants with their sources, the error table and its summary. Nothing in it is typed
// by hand except the explanations of the code, which say what the model does.
//
//   npm run validation-doc              (validate with calibration; add -- --mpi for Open MPI rows,
//                                        -- --repeat N to run the command N times, one after the other)
//   npm run validation-doc -- --rerender  (the doc again from docs/validation.json, the last run)
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { positive } from './args.ts';
import { nativeMain } from './cli.ts';
import { formatReport, TARGET, type Report } from './report.ts';
import { CHANGE_FACTOR, tripText } from './host-check.ts';
import { repeatedRunsText, runsMeetingTarget } from './repeated-runs.ts';
import { DEFAULT_ROUNDS } from './rounds.ts';
import { PAGE_BYTES } from './predict.ts';
import { formatBytes } from '../common/bytes.ts';
import { smBtlCosts } from '../sim/kernel/shm/costs.ts';

const DOC = fileURLToPath(new URL('../docs/validation.md', import.meta.url));
/** The run's whole report, kept beside the doc: its raw figures, and what `--rerender` reads. */
const RUN = fileURLToPath(new URL('../docs/validation.json', import.meta.url));
/** The runs of a `--repeat` so far, written after each (outside the repository's tracked files). */
const PARTIAL = join(tmpdir(), 'intranode-validation-runs.json');

function cpuModel(): string {
  const out = spawnSync('sh', ['-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], { encoding: 'utf8' });
  return out.stdout.trim() || 'unknown CPU';
}

const usText = (ns: number) => `${(ns / 1000).toFixed(0)} us`;

/**
 * What the fragment probes (mpi/run-mpi.ts, fragmentProbes) show, from the run's rows: for each
 * probed operation, its probe rows (the defaults first), measured and, where the model can say it,
 * predicted.
 */
export function fragmentProbeText(rows: Report['rows']): string[] {
  const probes = rows.filter((r) => r.set === 'probe' && r.mechanism === 'mpi shm');
  if (probes.length === 0) return [];
  const out: string[] = [
    "- **Open MPI's fragments** (the `probe` rows, measured after the test rows at their largest size, in",
    '  rounds of their own, and counted in no summary). Without CMA, ob1 sends a large message as a',
    `  pipeline of the BTL's fragments, at most \`pml_ob1_send_pipeline_depth\` (${smBtlCosts.sendPipelineDepth} by default) in flight.`,
    '  Measured here, and predicted where the model can say it (`smPipelineDepth`; it has no cap on the',
    '  free list):',
  ];
  for (const op of [...new Set(probes.map((p) => p.name.split(',')[0]))]) {
    const mine = probes.filter((p) => p.name.startsWith(`${op},`));
    const parts = mine.map((p) => {
      const model = p.predictedNs === undefined ? '' : ` (model ${usText(p.predictedNs)})`;
      return `${p.name.slice(op.length + 2)} ${usText(p.measured.medianNs)}${model}`;
    });
    out.push(`  - ${op.split(' ')[0]} of ${formatBytes(mine[0].bytes, { space: true })}: ${parts.join('; ')}.`);
  }
  out.push(
    '  Depth 64 lets the sender run ahead through fresh fragments; with eight fragments it runs ahead',
    '  but the same few cycle between the two cores, as at the default depth. Where the eight-fragment',
    "  row is as slow as the defaults, the cost is the fragments' reuse (a sender claiming lines the",
    '  receiver has just read: `costs.claimConcurrency`), not the depth; where the defaults are slower',
    '  still, the depth itself holds the transfer back, which the model, whose depth limit binds only',
    '  where a receiver unpacks more slowly than its sender packs, does not reproduce.',
  );
  return out;
}

/** Pairs of test rows whose second sends and receives at once where the first goes one way. */
const BOTH_WAYS = [
  { what: 'the native double copy, ping-ping over ping-pong', one: 'pingpong shm', both: 'pingping shm' },
  {
    what: 'native CMA, ping-ping over ping-pong (each rank reads the other at once)',
    one: 'pingpong cma',
    both: 'pingping cma',
  },
  {
    what: "Open MPI without CMA, a two-rank all-to-all (one block each way, and each rank's own) over a broadcast",
    one: 'MPI_bcast basic no-cma',
    both: 'MPI_alltoall basic no-cma',
  },
  {
    what: 'Open MPI with CMA, the same all-to-all over the same broadcast',
    one: 'MPI_bcast basic cma',
    both: 'MPI_alltoall basic cma',
  },
] as const;

/**
 * How much longer sending and receiving at once takes than one way, on the host and in the model,
 * from the run's test rows: the ratio of each pair of rows (BOTH_WAYS) at every size both have.
 */
export function bothWaysText(rows: Report['rows']): string[] {
  const test = rows.filter((r) => r.set === 'test');
  const lines: string[] = [];
  for (const pair of BOTH_WAYS) {
    const parts: string[] = [];
    for (const one of test.filter((r) => r.name === pair.one)) {
      const both = test.find((r) => r.name === pair.both && r.bytes === one.bytes);
      if (!both) continue;
      const host = (both.measured.medianNs / one.measured.medianNs).toFixed(2);
      const model =
        both.predictedNs !== undefined && one.predictedNs !== undefined
          ? (both.predictedNs / one.predictedNs).toFixed(2)
          : '-';
      parts.push(`${formatBytes(one.bytes, { space: true })} ${host} (model ${model})`);
    }
    if (parts.length > 0) lines.push(`  - ${pair.what}: ${parts.join(', ')}.`);
  }
  if (lines.length === 0) return [];
  return [
    "- **Both ways at once, against one way** (from the test rows): how many times one way's time it takes",
    '  when each rank sends and receives at once, on the host and in the model.',
    ...lines,
    "  Where the host's ratio is the higher, the host pays more for the two ways at once, against one way,",
    "  than the model does; the rows' own errors in the table above say which of the two rows the model",
    '  misses. What the host spends that on is not measured here.',
  ];
}

/** A probe's time: to the hundredth of a microsecond below 10 us, as usText above. */
function nsText(ns: number): string {
  return ns < 10_000 ? `${(ns / 1000).toFixed(2)} us` : usText(ns);
}

/** A row's round medians' range, or nothing with one round. */
function roundsSpread(r: Report['rows'][number]): string {
  const m = r.measured.roundMediansNs;
  return m && m.length > 1 ? ` (rounds ${nsText(Math.min(...m))}-${nsText(Math.max(...m))})` : '';
}

/**
 * What the cold-order probe (validate.ts, coldOrderRows) shows: the native basic broadcast with its
 * cold buffers taken one after another, as every test case takes them, and in a shuffled order.
 */
export function coldOrderText(rows: Report['rows']): string[] {
  const probes = rows.filter((r) => r.set === 'probe' && r.mechanism === 'shm');
  if (probes.length === 0) return [];
  const sizes = [...new Set(probes.map((p) => p.bytes))];
  const at = (bytes: number, order: string) =>
    probes.find((p) => p.bytes === bytes && p.name.endsWith(`${order} order`));
  /** Shuffled slower in every round than in-order in any: a difference beyond the rounds' spread. */
  const apart = (seq: Report['rows'][number], shuf: Report['rows'][number]) =>
    Math.min(...(shuf.measured.roundMediansNs ?? [shuf.measured.medianNs])) >
    Math.max(...(seq.measured.roundMediansNs ?? [seq.measured.medianNs]));
  const lines: string[] = [];
  const differ: string[] = [];
  for (const bytes of sizes) {
    const seq = at(bytes, 'sequential');
    const shuf = at(bytes, 'shuffled');
    if (!seq || !shuf) continue;
    const size = formatBytes(bytes, { space: true });
    const model = seq.predictedNs === undefined ? '' : `; model ${nsText(seq.predictedNs)}`;
    lines.push(
      `  - ${size}: ${nsText(seq.measured.medianNs)} in order${roundsSpread(seq)}, ${nsText(shuf.measured.medianNs)} shuffled${roundsSpread(shuf)}${model}.`,
    );
    if (apart(seq, shuf)) differ.push(size);
  }
  const verdict =
    differ.length === 0
      ? ['  At no probed size do the two orders differ beyond the spread of their rounds.']
      : [
          `  At ${differ.join(' and ')} the shuffled order is slower in every round. The data's lines are in no`,
          '  cache in either order, so what differs is what the hardware foresees or looks up: prefetches that',
          '  follow the rotation from one iteration to the next, or the page walks of pages whose translations',
          '  no cache holds; this probe does not tell them apart. The model has neither.',
        ];
  return [
    '- **How cold the cold buffers are** (the `probe` rows named `bcast basic, ... order`, counted in no',
    "  summary). Every cold test case takes its rotation buffers one after another, as IMB's `-off_cache`",
    '  does, a constant stride apart. The basic broadcast without single copy, its buffers taken in that',
    '  order and in a fixed shuffled one:',
    ...lines,
    ...verdict,
  ];
}

/** The upper median: the middle value, the higher of the two middle ones for an even count. */
function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
}

/**
 * What the native CMA test rows, all cold, take beyond the model per page of the message, beside
 * how close the warm CMA training sweep came: a host cost per cold page that the model's cold
 * transfer (its struct page misses, its cold data) lacks shows here, not in the warm fit.
 */
export function coldCopyText(rows: Report['rows']): string[] {
  const cold = rows.filter(
    (r) => r.set === 'test' && r.mechanism === 'cma' && r.predictedNs !== undefined && r.bytes >= PAGE_BYTES,
  );
  const warm = rows.filter((r) => r.set === 'training' && r.mechanism === 'cma' && r.errorPct !== undefined);
  if (cold.length === 0 || warm.length === 0) return [];
  const perPage = cold.map((r) => (r.measured.medianNs - r.predictedNs!) / Math.ceil(r.bytes / PAGE_BYTES));
  const us = (ns: number) => `${(ns / 1000).toFixed(2)} us`;
  const warmError = median(warm.map((r) => Math.abs(r.errorPct!)));
  return [
    `- **Cold single copies** (the \`cma\` test rows of a page or more, all cold): the host takes ${us(median(perPage))} per`,
    `  4 KiB page of the message beyond the model's prediction (median of ${cold.length} rows; from ${us(Math.min(...perPage))} to`,
    `  ${us(Math.max(...perPage))}), where the warm CMA training sweep is predicted within ${warmError.toFixed(1)} %`,
    "  (median |error| of its training rows). The model's cold transfer differs from its warm one by the",
    "  pages' struct page misses, the cold data and, for the pages of the reader's buffer that no earlier",
    '  call reached, the fitted `firstUserAccessNs` (above, "First access to a page").',
  ];
}

/**
 * What the first-access probe (validate.ts, firstAccessRows) shows: one reader over CMA, cold, every
 * measured call reaching new pages of its buffer, or pages an earlier call of the rotation reached.
 */
export function firstAccessText(rows: Report['rows']): string[] {
  const probes = rows.filter((r) => r.set === 'probe' && r.name.startsWith('onetoall cma, cold, '));
  const at = (bytes: number, way: string) => probes.find((p) => p.bytes === bytes && p.name.endsWith(way));
  const lines: string[] = [];
  for (const bytes of [...new Set(probes.map((p) => p.bytes))]) {
    const fresh = at(bytes, 'new pages');
    const again = at(bytes, 'pages reached before');
    if (!fresh || !again) continue;
    const pages = Math.ceil(bytes / PAGE_BYTES);
    const perPage = (a: number, b: number) => `${((a - b) / pages / 1000).toFixed(2)} us`;
    const model =
      fresh.predictedNs === undefined || again.predictedNs === undefined
        ? ''
        : `; the model ${usText(fresh.predictedNs)} and ${usText(again.predictedNs)}, ${perPage(fresh.predictedNs, again.predictedNs)} a page`;
    lines.push(
      `  - ${formatBytes(bytes, { space: true })}: ${usText(fresh.measured.medianNs)} reaching new pages, ${usText(again.measured.medianNs)} reaching pages reached before, ${perPage(fresh.measured.medianNs, again.measured.medianNs)} a page apart${model}.`,
    );
  }
  if (lines.length === 0) return [];
  return [
    "- **The kernel's first access to a page** (the `probe` rows named `onetoall cma, cold, ...`, counted in",
    "  no summary). One reader over CMA, cold, its buffers rotated as every cold case's are (over more copies",
    '  where the calls would otherwise come back to one); either every measured call reaches pages of its',
    '  buffer that no call reached before (two warm-up calls), or the',
    '  rotation has come round once (a whole rotation of warm-up calls), so that each call reaches the',
    "  pages its copy's last turn reached; the caches are as cold both ways. Medians:",
    ...lines,
    '  The difference is what the model charges as `firstUserAccessNs` (docs/model.md, "The kernel\'s first',
    '  access to a user page"), fitted on the training\'s cold CMA sweep, whose every call reaches new pages.',
  ];
}

/**
 * What the target-in-the-kernel probe (validate.ts, targetInKernelRows) shows: one reader over CMA,
 * warm, its target polling its mailbox or making system calls while it waits for the reader; with
 * the rows of every run of the command (`runs`, the first being `rows`), each run's difference too.
 */
export function targetInKernelText(rows: Report['rows'], runs: readonly Report['rows'][] = [rows]): string[] {
  const name = (way: string) => `onetoall cma, warm, target ${way}`;
  /** A run's two rows at `bytes`, its target polling and in system calls, where it has both. */
  const pairAt = (of: Report['rows'], bytes: number) => {
    const probe = (way: string) => of.find((r) => r.set === 'probe' && r.bytes === bytes && r.name === name(way));
    const [polling, busy] = [probe('polling'), probe('in system calls')];
    return polling && busy ? { polling, busy } : undefined;
  };
  const signed = (ns: number) => `${ns >= 0 ? '+' : '-'}${nsText(Math.abs(ns))}`;
  const sizes = new Set(rows.filter((r) => r.set === 'probe' && r.name.startsWith(name(''))).map((r) => r.bytes));
  const lines: string[] = [];
  for (const bytes of sizes) {
    const pair = pairAt(rows, bytes);
    if (!pair) continue;
    const { polling, busy } = pair;
    // The same difference in each run of the command that measured both ways at this size.
    const each = runs.flatMap((of) => {
      const p = pairAt(of, bytes);
      return p ? [signed(p.busy.measured.medianNs - p.polling.measured.medianNs)] : [];
    });
    const inRuns = each.length > 1 ? ` (in each run of the command: ${each.join(', ')})` : '';
    lines.push(
      `  - ${formatBytes(bytes, { space: true })}: ${nsText(polling.measured.medianNs)} with its target polling${roundsSpread(polling)}, ${nsText(busy.measured.medianNs)} with it in system calls${roundsSpread(busy)}: ${signed(busy.measured.medianNs - polling.measured.medianNs)}${inRuns}.`,
    );
  }
  if (lines.length === 0) return [];
  return [
    '- **A target in the kernel** (the `probe` rows named `onetoall cma, warm, target ...`, counted in no',
    "  summary). One reader over CMA, warm, its target waiting for the reader's notice either by polling its",
    "  mailbox, as every case's ranks wait, or by making system calls (getpid) between polls, as a rank in a",
    "  system call of its own would be (in ping-ping over CMA, each rank's read runs while the other reads it);",
    "  each iteration is timed to the reader's end. Medians:",
    ...lines,
    "  A read takes and drops references on its target's task (whose first cache line holds the thread",
    '  flags its own system calls read on entry and exit) and memory descriptor (mm/process_vm_access.c:',
    "  find_get_task_by_vpid, mm_access, mmput, put_task_struct). The model's CMA read costs the same",
    "  whatever its target does, so it has no figure for these rows; a difference beyond the rounds' spread",
    '  would be a cost the model lacks.',
  ];
}

function signedMedian(rows: Report['rows']): number {
  const e = rows.flatMap((r) => (r.errorPct === undefined ? [] : [r.errorPct]));
  return e.length === 0 ? 0 : median(e);
}

/** The doc of one or more runs of the same command: the first run's tables, and every run's summary. */
export function validationDoc(reports: readonly Report[], cpu: string): string {
  const report = reports[0];
  const s = report.summary;
  const out: string[] = [];
  out.push('# Validation against real runs', '');
  out.push(
    `Generated by \`npm run validation-doc\` (native-validate/validation-doc.ts) from ${reports.length === 1 ? 'one run' : `${reports.length} runs`} of the command below;`,
    'edit the generator, not this file. `intranode calibrate` fits the constants the model has on a *training* set',
    'of native measurements (native-validate/fit/constants.ts lists the fits and how each is made); `intranode',
    'validate` then measures a *test* set it was not fitted on (other operations, sizes and process counts),',
    'predicts it with the simulator on the calibrated machine, and prints measured, predicted and error.',
    '',
  );
  out.push(
    '## What runs natively',
    '',
    "`native-validate/src/` is built by `native-validate/build.sh` with the machine's `cc` (exit status 3 and a",
    'message when there is none; `calibrate` and `validate` build it when it is missing or older than a source).',
    'The program forks one process per rank, pins each to its core (`sched_setaffinity`), lets each first-touch',
    'its own buffers, and synchronises the ranks through one POSIX shared-memory segment (barriers, one mailbox',
    'per ordered pair for addresses and "done" notices, and the double-copy rings).',
    '',
    '- Double copy (`shm`): per ordered pair, a ring of eight 64 KiB slots. A message of up to 64 KiB goes as one',
    "  fragment (Nemesis's eager cell); a larger one in the chunks of MPICH2's LMT, 16 KiB up to 128 KiB and 32 KiB",
    '  above (mpid_nem_lmt_shm.c); the sender copies fragments in while the receiver copies earlier ones out.',
    '  Predicted with the Nemesis transport (`shm: nemesis`, no single copy, no library work per packet side).',
    "- CMA: every transfer carries its own rendezvous, as an MPI library's would: the buffer's address goes",
    '  through the mailbox, the peer calls `process_vm_readv` (or `process_vm_writev`), then says done.',
    '- Collectives from root 0: over CMA, the linear single-copy designs of Ma et al. (seed 000) predicted by',
    "  the `cma-linear` algorithms; over the double copy, Open MPI `basic`'s linear designs, predicted by `basic`.",
    "- An iteration is timed from the earliest rank's start to the latest rank's end, as the simulator times",
    "  it. Its ranks start at one instant, a start time set a margin ahead by the barrier's last rank",
    '  (src/team.c, `team_start`; in the Open MPI program, rank 0 after `MPI_Barrier`, which broadcasts it):',
    "  a barrier's release reaches the ranks a line's trip apart, a skew the simulated iteration does not",
    '  have. Ping-pong reports half the round trip. The table gives the median and the',
    '  interquartile range; test cases, native and through Open MPI, rotate their buffers over more than',
    '  twice a cache size (IMB `-off_cache`): `--off-cache`, by default the largest cache sysfs lists for',
    "  cpu0, or 32 MiB where it lists none (the report's first lines say which). Every rank checks every",
    '  byte it received after each iteration, outside the timing.',
    '- The whole test set runs in rounds (`--rounds`, three by default), one after the other, and each row is',
    "  the case's fastest round; the `rounds` column gives the lowest and highest round medians. On a shared",
    '  host interference comes in episodes that slow every iteration of a case for a while (on this virtual',
    '  machine the double copy alone slows two- to fivefold, as if its two virtual CPUs were moved apart),',
    '  which a median over iterations cannot remove. Interference only slows a case down, so its fastest',
    "  round is the host in its least disturbed state; the training copies (the double copy's ring among them)",
    `  and the chase that finds how much of the last-level cache the process gets are taken in ${DEFAULT_ROUNDS} rounds`,
    '  the same way, so that model and test rows describe the same state; not in `--rounds` rounds: the fastest',
    '  of more rounds more often catches a moment the test rows mostly did not see, such as one in which the',
    '  two virtual CPUs behave as one core. Every native case and Open MPI launch also measures a cache',
    "  line's trip between its first two cores right before and right after it, and a row's fastest round is",
    `  taken among the rounds whose trips stayed within a factor ${CHANGE_FACTOR} of the training's: with its two cores`,
    '  moved apart this host runs some single copies faster and the double copy slower. Where none did, it is',
    "  taken among the rounds that ran in the host's other placement and predicted on that machine (marked ~;",
    '  below, "Which cache the two cores share"), else it is its fastest round of all, marked *: a machine',
    '  the model does not describe.',
    "- Nothing is left behind: on success, a rank's failure, the timeout, SIGINT, SIGTERM or SIGHUP the parent",
    '  kills and reaps every rank and unlinks the segment; ranks die with a parent killed outright',
    '  (`PR_SET_PDEATHSIG`), whose segment the next run removes; and the parent cleans up as for SIGTERM when the',
    '  intranode command that started it is killed on its own (`PR_SET_PDEATHSIG` again; it ignores SIGPIPE, so',
    '  saying so on a stderr nobody reads cannot stop it first). test/native/cleanup.test.ts kills runs and counts',
    '  what remains in /dev/shm and the process table.',
    '- CMA refused by the kernel (EPERM under ptrace restrictions, ENOSYS) is found by a probe before any CMA case;',
    '  the report says so and the shared-memory cases still run.',
    '',
  );
  out.push('## Host', '');
  out.push(`- CPU: ${cpu}; ${report.host.description}`);
  out.push(`- Kernel ${report.host.kernel}; detected via ${report.host.via}`);
  out.push(`- Cores used: ${report.host.cores.join(', ')}`);
  out.push(
    `- Load average (1, 5, 15 min) during the run: ${report.load.start} at its start, ${report.load.end} at its end, on ${report.host.cores.length} cores`,
  );
  out.push(
    '- Larger Linux machines (16 cores or more): none was available to this project when this file was generated, so only this host is recorded.',
    '',
  );
  out.push('## Command', '', '```sh', report.command, '```', '');
  if (report.fitted) {
    out.push('## Fitted constants', '', '| field | value | source |', '| --- | --- | --- |');
    for (const f of report.fitted) out.push(`| \`${f.field}\` | ${f.value} | ${f.source.replace(/\|/g, '\\|')} |`);
    out.push('', 'Not fitted:', '', ...(report.unfitted ?? []).map((u) => `- ${u}`), '');
  }
  out.push('## Results', '', '```', formatReport(report).trimEnd(), '```', '');
  out.push('## Against the target', '');
  out.push(
    `Target: median absolute error on the test set at most ${TARGET.medianPct} %, maximum at most ${TARGET.maxPct} %. ` +
      `${reports.length === 1 ? 'This run' : 'The first run'}: median ${s.test.medianAbsErrorPct ?? '-'} %, maximum ${s.test.maxAbsErrorPct ?? '-'} % over ${s.test.cases} cases: ` +
      `${s.test.targetMet ? 'met' : 'not met'}.` +
      (reports.length === 1
        ? ''
        : ` Met in ${runsMeetingTarget(reports)} of the ${reports.length} runs of the command (below, "The same command, run after run").`),
    '',
  );
  if (report.hostCheck?.changed)
    out.push(
      `The host changed during this run: ${tripText(report.hostCheck)}. The constants describe the first state, so these errors mix two hosts: read them as a record of the run, not as the model's accuracy.`,
      '',
    );
  if (s.placement)
    out.push(
      `The \`trip(ns)\` column is a cache line's one-way trip between the first two cores, measured right before and right after the row's round (its ranks pass a line of their own back and forth: native-validate/src/measure.c; around each Open MPI launch, the host check's line ping-pong by two native ranks on the same cores). ` +
        (report.otherPlacement
          ? `${s.placement.other ?? '-'} test rows had no round placed as the machine describes and at least one in the host's other placement (${report.otherPlacement.description}): each such row is its fastest round there, predicted on that machine (marked ~). `
          : '') +
        `${s.placement.moved} test rows began or ended with it moved by more than a factor ${CHANGE_FACTOR} from the machine's placement's in every round${report.otherPlacement ? ', and in neither placement' : ''} (marked *): the host had the two cores placed otherwise than the model describes. ` +
        `Without them the test set has ${s.placement.rest.cases} cases, median ${s.placement.rest.medianAbsErrorPct ?? '-'} %, maximum ${s.placement.rest.maxAbsErrorPct ?? '-'} %; the target is judged on all of them, as above.`,
      '',
    );
  const test = report.rows.filter((r) => r.set === 'test');
  for (const [m, e] of Object.entries(s.byMechanism)) {
    const signed = signedMedian(test.filter((r) => r.mechanism === m));
    out.push(
      `- **${m}**: ${e.cases} cases, median |error| ${e.medianAbsErrorPct} %, max ${e.maxAbsErrorPct} %; the median signed error is ${signed.toFixed(1)} % (the model is ${signed < 0 ? 'faster' : 'slower'} than the host).`,
    );
  }
  out.push('');
  out.push(
    'What the calibration learns of this host beyond the constants of a preset:',
    '',
    "- **The last-level cache a process gets.** Where the host's L3 is shared with work the run does not see",
    '  (other tenants of a virtual machine), a pointer chase across its size shows how much of it holds our',
    '  data; the machine file then gives the model that capacity (native-validate/fit/capacity.ts; the',
    '  `caches[L3].size` row of the table above, when it appears, says what was measured). Other work takes',
    '  more of it at some moments than at others, so the chase is taken in every round, and each working set',
    "  counts with its fastest chase: the most the process got. The cache's latency is then chased inside",
    '  the capacity the first chase found, not beyond it.',
    '- **Which cache the two cores share.** A virtual machine may list a last-level cache per virtual CPU',
    "  although the host's cores behind them share one. The training's line ping-pong between the first two",
    '  cores decides: a trip nearer, as a ratio, to a load from the outermost cache than to the trip through',
    '  memory the detected topology gives makes their two caches one (native-validate/fit/shared-cache.ts;',
    '  the `cores` row of the table above says what was measured and decided), so that the lines the double',
    "  copy passes between them take the measured trip, not memory's. The host moves its virtual CPUs between",
    '  the two placements while it runs, so the model has both (native-validate/placements.ts): the machine',
    "  fitted, and the same machine with the two cores' outermost caches apart where it has them joined, or",
    "  joined where it has them apart (the line then passes at the cache's peer latency where one was fitted,",
    '  else at its load latency, a trip the training did not measure), every other constant as fitted. A',
    '  round whose line trips before and after are both',
    "  nearer, as a ratio, to the trip the model gives on the other machine than to the training's ran there.",
    '- **Cold pinning.** A CMA transfer pins every page of the other process, and each reference is a locked',
    "  increment on the page's `struct page`; in a cold iteration no cache holds those lines, so each page",
    '  pays a miss to memory (docs/model.md, "Contended kernel locks").',
    "- **First access to a page.** The kernel's first access to a page through the calling process's own",
    "  mapping (the reader's buffer of `process_vm_readv`) may cost a host more than the copy: a virtual",
    "  machine whose hypervisor shadows its page tables exits to it to fill the kernel table's entry",
    '  (docs/model.md, "The kernel\'s first access to a user page"). The training takes the CMA sweep cold, up',
    '  to 1 MiB, each size rotating over copies enough (over twice the off-cache size, more where needed)',
    "  that every call reaches new pages, and fits what it takes beyond the model's cold transfer, per such page, as",
    '  `kernel.params.firstUserAccessNs` (the table above). The model counts the pages per copy of the',
    "  buffers, so a cold case whose rotation comes round within its calls (the larger sizes' rotations are",
    '  shorter) pays it only on the calls that reach new pages, as the native run does; the probe below',
    '  measures both ways.',
    '',
    'Where the model errs, and why (what the code does now):',
    '',
    "- **Copies inside the caches.** A copy's stores are charged to the innermost of the core's caches that",
    '  holds its destination in half of it, beside the source (`planWrite` in sim/node/node.ts), and a larger',
    "  copy's to the outermost cache, where its dirty lines stream out; the levels a line passes on its way",
    "  out (an L1's evictions into the L2) carry nothing in the model. Where a level's copy measured faster",
    "  than the model's other bounds allow, its bandwidth is the least value that does not slow the model's",
    '  copy further (or its value before calibration, if that does not), not a default the measurement refutes.',
    "- **Cold calls' write-backs.** The test rows rotate their buffers, and the model starts such a run with",
    '  the caches full of dirty lines, as a benchmark that has run a while leaves them, so every call writes',
    '  back as much as it writes (docs/model.md, "The node"), to a last-level cache of the capacity the',
    "  calibration measured as this process's share. Whether the host writes those lines back within the",
    '  timed calls, or the rest of an L3 shared with other work holds them longer, is not measured here.',
    '- **The double copy** (`shm` rows, Open MPI rows without CMA). Its cost on this host is the sender',
    '  claiming ring lines the receiver has just read (`costs.claimConcurrency`, fitted on the `claims ring`',
    "  training row: one core's copy into ring lines the other has just read, timed alone, so that no overlap",
    '  of copy-in and copy-out enters the fit). A case whose `rounds` column spans several times its fastest',
    '  round was seen in the slower state too; the model, fitted in the faster one, describes that one.',
    '  With the two cores apart (rows marked ~ when the training found them together), each chunk the',
    "  receiver copies out comes from the other core's L3 at the trip between the two cores, as a flag",
    '  does (docs/model.md, "Lines between cores"), not at that L3\'s hit latency: the trip the training',
    "  measured (`numaNodes[*].peerLatencyNs` where the training found the cores apart), not memory's",
    "  latency. The sender's copy into a free fastbox runs while the flag's line it checks first is on its",
    '  way (docs/model.md, Nemesis). How many of the lines a copy takes from the other core a core has in',
    '  flight is not measured by the training.',
    '- **A rank that sends and receives at once** (ping-ping, all-to-all). A rank copies one piece or',
    '  does one step of library work at a time in the model (docs/model.md, "One thread per rank"), as an',
    "  MPI process's progress engine does; what remains of these rows' error is how the host interleaves",
    '  the two transfers (below, "Both ways at once").',
    "- **Small messages.** Open MPI's own work per fragment is fitted on two broadcasts (the training",
    '  rows among the Open MPI rows): per side of a fragment that starts a message (`kernel.params.smSideNs`)',
    '  on one of 64 bytes, then per side of an ACK or later fragment (`kernel.params.smFollowSideNs`) on a',
    '  rendezvous of 8 KiB. The native double copy has no MPI library around its ring, so it is predicted',
    "  with none (`nemesisSideNs: 0`: a fragment costs its flag and its copies); the native CMA programs'",
    "  mailbox messages keep the control path's per-side figure (sim/node/control.ts, 50 ns), which they",
    '  do not have either. Lines passed between the two',
    '  cores (flags, queue lines, what one copied in and the other copies out) cost the trip measured by',
    '  the training line ping-pong (`peerLatency`, docs/model.md, "Lines between cores").',
    '- **This host.** It is a two-core virtual machine shared with other work: the `rounds` column shows',
    '  cases whose rounds differ several times over, and the same command run twice fits different',
    '  constants. A prediction cannot be closer than the measurement is stable.',
    '- **Open MPI rows** (with `--mpi`): `han` has no model counterpart and is measured only; `basic` and',
    "  `tuned` are predicted with the sm BTL model, which is Open MPI's older shared-memory BTL, with vader's",
    '  per-peer fast box added (`smFastBox`: an eager message of at most 256 bytes of data, once 16',
    '  fragments have gone to the peer, skips the fragment and the FIFO; only the 64-byte training row is',
    '  that small). The rest of what vader does differently is not modelled.',
    '  `tuned` rows follow the fixed rules of the installed release (the notes say which): the per-size',
    '  tables of 4.1-5.0 run every algorithm unsegmented, where the rules before 4.1 cut medium',
    '  broadcasts into 1 KiB segments.',
    ...coldCopyText(report.rows),
    ...bothWaysText(report.rows),
    ...fragmentProbeText(report.rows),
    ...coldOrderText(report.rows),
    ...firstAccessText(report.rows),
    ...targetInKernelText(
      report.rows,
      reports.map((r) => r.rows),
    ),
    '',
  );
  // Last: under its own heading, it would otherwise take the explanations above as its own.
  out.push(...repeatedRunsText(reports));
  return out.join('\n');
}

/** `--repeat N` out of the arguments: how many times to run the command (1 without it). */
export function repeatCount(args: string[]): { repeat: number; rest: string[] } {
  const i = args.indexOf('--repeat');
  if (i < 0) return { repeat: 1, rest: args };
  return { repeat: positive('--repeat', args[i + 1] ?? '', 1, 20), rest: [...args.slice(0, i), ...args.slice(i + 2)] };
}

/** The runs kept beside the doc: a list of reports (a file of one report, as before, reads as one run). */
export function readRuns(text: string): Report[] {
  const parsed = JSON.parse(text) as Report | { runs: Report[] };
  return 'runs' in parsed ? parsed.runs : [parsed];
}

async function main(): Promise<void> {
  const extra = process.argv.slice(2);
  let reports: Report[] = [];
  if (extra[0] === '--rerender') {
    // The explanations changed, not the measurements: the doc again from the runs it was made from.
    if (extra.length > 1) throw new Error(`--rerender takes no other argument, got ${extra.slice(1).join(' ')}`);
    reports = readRuns(readFileSync(RUN, 'utf8'));
  } else {
    const { repeat, rest } = repeatCount(extra);
    for (let k = 0; k < repeat; k++) {
      if (repeat > 1) process.stderr.write(`validation-doc: run ${k + 1} of ${repeat}\n`);
      let json = '';
      const code = await nativeMain(['validate', '--json', ...rest], {
        stdout: (t) => (json += t),
        stderr: (t) => process.stderr.write(t),
      });
      if (code !== 0) {
        if (reports.length > 0)
          process.stderr.write(`validation-doc: the ${reports.length} run(s) before it are in ${PARTIAL}\n`);
        process.exit(code);
      }
      const report = JSON.parse(json) as Report;
      report.command = ['intranode', 'validate', ...rest].join(' ');
      reports.push(report);
      // Kept as they come: a later run's failure does not lose the minutes the earlier ones took.
      if (repeat > 1) writeFileSync(PARTIAL, JSON.stringify({ runs: reports }, null, 2) + '\n');
    }
  }
  writeFileSync(RUN, JSON.stringify({ runs: reports }, null, 2) + '\n');
  writeFileSync(DOC, validationDoc(reports, cpuModel()));
  process.stderr.write(`wrote ${DOC} and ${RUN}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
