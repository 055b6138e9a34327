// Plain-text report in the style of the OSU micro-benchmarks: a "# " header block, then one row
// per size (bytes, as an integer) with each algorithm's time in µs and its time relative to the
// baseline, and for point-to-point operations its bandwidth in MB/s.
import type { Scenario } from '../scenario.ts';
import { parametersText, placementName, rootName } from '../scenario.ts';
import { placedOn } from '../expand.ts';
import { unavailableNotes, type ResultTable, type ScenarioResult } from '../run.ts';
import { megabytesPerSecond, reportsBandwidth } from './bandwidth.ts';
import { alignColumns } from './columns.ts';
import { breakdownKinds, normalised } from './normalise.ts';
import { warmupBeyondAsked } from '../../algorithms/harness/cold-warmup.ts';
import type { MachineSpec } from '../../hardware/spec.ts';

export interface TableReportOptions {
  breakdown?: boolean;
  memory?: boolean;
}

export function formatTableReport(result: ScenarioResult, opts: TableReportOptions = {}): string {
  const blocks = result.tables.map((t) => {
    const lines = [
      ...headerBlock(result.scenario, t),
      ...timeColumns(result.scenario, t),
      ...notes(t),
      ...fallbackNotes(result.scenario, t),
    ];
    if (opts.breakdown) lines.push('', ...breakdownColumns(t));
    if (opts.memory) lines.push('', ...memoryColumns(t));
    return lines.join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}

function headerBlock(s: Scenario, t: ResultTable): string[] {
  const m = t.machine.spec;
  const lines = [`# Scenario: ${s.name}`];
  if (s.description)
    lines.push(
      ...s.description
        .trim()
        .split('\n')
        .map((l) => `# ${l}`.trimEnd()),
    );
  lines.push(
    `# Machine: ${m.name} (${count(m.packages.length, 'package')}, ${count(m.numaNodes.length, 'NUMA node')}, ${count(m.cores.length, 'core')})${replaced(s)}`,
    ...(t.machine.parameters ? [`# Machine parameters: ${parametersText(t.machine.parameters)}`] : []),
    `# Ranks: ${t.ranks}`,
    `# Placement: ${placementName(t.placement)}${s.smt ? ', smt' : ''} (${placedOn(t)})`,
    `# Cache: ${s.cache}`,
    `# Operation: ${s.operation}${s.rooted ? `, root ${rootName(t.root)}` : ''}; ${count(s.iterations, 'iteration')} after ${warmupText(s, m)}`,
    `# Baseline: ${s.baseline}`,
  );
  if (s.countsKind)
    lines.push(
      s.counts
        ? `# Counts: ${s.counts.join(' ')} (times each size, ${s.countsKind === 'per-pair' ? 'per sender and receiver, sender-major' : 'per rank'})`
        : '# Counts: the default rule (docs/scenario-format.md, Counts)',
    );
  if (s.buffers === 'fresh')
    lines.push(
      '# Buffers: fresh (new send and receive buffers every call: first-touch faults and registrations each time)',
    );
  if (t.railShare !== undefined)
    lines.push(`# Rail share: ${t.railShare} of each message between hosts on the first NIC (rails: share)`);
  if (s.seedSweep) lines.push(`# Seed: ${t.seed}`);
  if (s.skewNs)
    lines.push(
      `# Skew: each rank arrives up to ${s.skewNs / 1000} us late (uniform, seed ${t.seed}); time: the slowest rank's, from its arrival to its return`,
    );
  return lines;
}

/** The scenario's description may name its own machine: say that --machine replaced it. */
function replaced(s: Scenario): string {
  if (!s.replacedMachines) return '';
  const own = s.replacedMachines.length
    ? `the scenario's ${s.replacedMachines.join(', ')}`
    : 'no machine in the scenario';
  return `, from --machine instead of ${own}`;
}

function timeColumns(s: Scenario, t: ResultTable): string[] {
  // Point-to-point tables add MB/s, as osu_bw and IMB's PingPong report beside the time.
  const bw = reportsBandwidth(s.operation);
  const header = [
    '# Size',
    ...s.algorithms.flatMap((a) => [`${a.label}(us)`, `${a.label}(norm)`, ...(bw ? [`${a.label}(MB/s)`] : [])]),
  ];
  const rows = t.rows.map((row) => [
    String(row.bytes),
    ...row.cells.flatMap((cell) => {
      if (cell.unavailable !== undefined) return bw ? [NA, NA, NA] : [NA, NA];
      const n = normalised(cell, row.cells, s.baseline);
      const cells = [fixed(cell.result.meanNs / 1000), n === undefined ? '-' : fixed(n)];
      if (bw) cells.push(fixed(megabytesPerSecond(row.bytes, cell.result.meanNs)));
      return cells;
    }),
  ]);
  return alignColumns(header, rows);
}

/** Why each n/a cell could not run, and how many calls were replayed, under the table. */
function notes(t: ResultTable): string[] {
  const cells = t.rows.flatMap((r) => r.cells);
  const lines = unavailableNotes(cells).map((note) => `# ${NA} ${note}`);
  let replayed = 0;
  let calls = 0;
  for (const c of cells) {
    if (c.unavailable !== undefined || c.result.replayed === undefined) continue;
    replayed += c.result.replayed.calls;
    calls += c.result.replayed.of;
  }
  if (replayed > 0)
    lines.push(
      `# Steady state: in the cells where it occurred, ${replayed} of ${calls} measured calls started in an earlier call's state and were taken from it, not simulated again (--exact simulates them)`,
    );
  return lines;
}

/**
 * A column that asks for a single-copy mechanism the machine's kernel lacks runs over the double
 * copy, as Open MPI and MPICH do without the module (sim/kernel/p2p.ts): its times are real, but
 * not those of the mechanism it names, so the table says so.
 */
function fallbackNotes(s: Scenario, t: ResultTable): string[] {
  const mechanisms = t.machine.spec.kernel.mechanisms;
  return s.algorithms.flatMap((a) => {
    const single = a.params.single;
    if (typeof single !== 'string' || single === 'none' || mechanisms[single as keyof typeof mechanisms]) return [];
    return [
      `# Note: ${a.label} asks for single: ${single}, which ${t.machine.spec.name} lacks; its messages take the double copy, as the MPI libraries do without the module`,
    ];
  });
}

function breakdownColumns(t: ResultTable): string[] {
  // Grouped by algorithm, so each algorithm's shares read down one block as the size grows.
  const count = t.rows[0]?.cells.length ?? 0;
  const cells = Array.from({ length: count }, (_, i) => t.rows.map((r) => r.cells[i])).flat();
  const kinds = breakdownKinds(cells);
  const header = ['# Algorithm', 'Size', ...kinds.map((k) => `${k}(%)`)];
  const rows = cells.map((c) => [
    c.algorithm.label,
    String(c.point.bytes),
    ...kinds.map((k) => (c.unavailable !== undefined ? NA : fixed(100 * (c.result.breakdown[k] ?? 0), 1))),
  ]);
  return ['# Breakdown: share of rank-time in each kind of step', ...alignColumns(header, rows, 2)];
}

/** One row per size, one column per algorithm: the KiB its first call allocated beyond the
 *  operation's own buffers (harness/simulate.ts, `libraryBytes`). */
function memoryColumns(t: ResultTable): string[] {
  const labels = t.rows[0]?.cells.map((c) => c.algorithm.label) ?? [];
  const header = ['# Size', ...labels.map((l) => `${l}(KiB)`)];
  const rows = t.rows.map((r) => [
    String(r.bytes),
    ...r.cells.map((c) => (c.unavailable !== undefined ? NA : fixed(c.result.libraryBytes / 1024, 1))),
  ]);
  return [
    "# Library memory: what the MPI library allocated beyond the operation's own buffers, by the end of the first call",
    ...alignColumns(header, rows, 1),
  ];
}

/** A cell the machine cannot run (see the note under the table). */
const NA = 'n/a';

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function fixed(n: number, digits = 2): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '-';
}

/** The warm-up the run made (a cache-off run makes at least one call, cold-warmup.ts), and what it asked. */
function warmupText(s: Scenario, machine: MachineSpec): string {
  const made = warmupBeyondAsked(s.cache, s.warmup, machine);
  if (made === undefined) return `${s.warmup} warm-up`;
  return `${made} warm-up (${s.warmup} asked; with cold caches the run warms up for at least ${made} on this machine)`;
}
