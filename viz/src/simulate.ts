// What the worker does with a run request: load the scenario text as the CLI loads a file, run
// every point with its steps and loads kept, on the machine as it is and, given edits, on the
// edited machine too. Machines come from the preset texts and the user's uploads, never from disk.
import { catalogue } from '../../algorithms/catalogue.ts';
import { didYouMean, InputError } from '../../common/input-error.ts';
import { importHwlocXml } from '../../hardware/hwloc/import.ts';
import { parseMachineYaml } from '../../hardware/machine-file.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { expandScenario, type Table } from '../../scenarios/expand.ts';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { UnavailableError, type Point } from '../../scenarios/point.ts';
import { parametersText, placementName, type Scenario } from '../../scenarios/scenario.ts';
import { simulatePointTraced } from '../../scenarios/simulate-point.ts';
import { ChromeTraceWriter, type PointTrace } from '../../scenarios/trace/chrome-trace.ts';
import { pointNames } from '../../scenarios/trace/point-names.ts';
import { applyEdits } from './machine-edits.ts';
import type { LocatedError, PointData, RunData, RunInput, RunSide } from './protocol.ts';

/** The name errors give the editor's text. */
export const SCENARIO_FILE = 'scenario.yaml';

export interface Sources {
  /** Preset name → the text of its machine file. */
  presets: Record<string, string>;
}

/** Loads the scenario (for the editor's inline errors) and returns it. */
export function loadInput(input: RunInput, sources: Sources): Scenario {
  const resolve = (ref: string): MachineSpec => resolveMachine(ref, input, sources);
  return loadScenarioText(input.scenario, {
    file: SCENARIO_FILE,
    cwd: '/',
    catalogue,
    resolveMachine: resolve,
    ...(input.machine ? { machineOverride: input.machine } : {}),
  });
}

export interface RunOutput {
  run: RunData;
  /** Every point's trace, what-if points after the original ones, for the JSON export. */
  traces: PointTrace[];
  /** The original machine's side, to give the next run that has the same one (`runInput`'s `earlier`). */
  original: OriginalSide;
}

/** A run's side on the machine as it is, with what decides it: the scenario, machine and uploads. */
export interface OriginalSide {
  key: string;
  side: RunSide;
  traces: PointTrace[];
}

/**
 * Runs the scenario on its machine and, given edits, on the edited machine. `earlier`: a previous
 * run's original side, taken instead of running it again when this run's scenario text, machine
 * and uploads are the same (the simulator is deterministic: only the what-if edits changed).
 */
export function runInput(
  input: RunInput,
  sources: Sources,
  progress: (done: number, total: number) => void,
  earlier?: OriginalSide,
): RunOutput {
  const scenario = loadInput(input, sources);
  const sides: Scenario[] = [scenario];
  if (input.edits.length > 0) {
    const machines = scenario.machines.map((m) => ({ ...m, spec: applyEdits(m.spec, input.edits) }));
    sides.push({ ...scenario, machines });
  }
  const key = JSON.stringify([input.scenario, input.machine ?? '', input.uploads]);
  const reused = earlier?.key === key ? earlier : undefined;
  const expanded = sides.map((side, s) => (s === 0 && reused ? [] : expandScenario(side)));
  const total = expanded.reduce(
    (n, tables) => n + tables.reduce((m, t) => m + t.rows.length * scenario.algorithms.length, 0),
    0,
  );
  let done = 0;
  const traces: PointTrace[] = [...(reused?.traces ?? [])];
  const results: RunSide[] = expanded.map((tables, s) => {
    if (s === 0 && reused) return reused.side;
    const points: PointData[] = [];
    // The edited machine's name already says what-if, and the names name the machine.
    const names = pointNames(sides[s], tables);
    tables.forEach((table, t) => {
      for (const row of table.rows) {
        for (const cell of row.cells) {
          const index = points.length;
          const title = tableTitle(scenario, table);
          const data = runPoint(cell.point, index, t, title, cell.algorithm.label, names[index]);
          points.push(data.point);
          traces.push(data.trace);
          progress(++done, total);
        }
      }
    });
    return { machines: tables.map((t) => t.machine.spec), points };
  });
  const originalTraces = reused ? reused.traces : traces.slice(0, results[0].points.length);
  return {
    original: { key, side: results[0], traces: originalTraces },
    run: {
      name: scenario.name,
      operation: scenario.operation,
      baseline: scenario.baseline,
      algorithms: scenario.algorithms.map((a) => a.label),
      original: results[0],
      ...(results[1] ? { whatIf: results[1] } : {}),
    },
    traces,
  };
}

/** The whole run's trace as Chrome trace event JSON. */
export function traceJson(traces: readonly PointTrace[]): string {
  const parts: string[] = [];
  const writer = new ChromeTraceWriter((t) => parts.push(t));
  traces.forEach((t, i) => writer.point(i, t));
  writer.end();
  return parts.join('');
}

/** An error for the page: InputErrors keep their location, anything else is only a message. */
export function locate(e: unknown): LocatedError {
  if (e instanceof InputError) return { message: e.detail, ...e.location };
  return { message: e instanceof Error ? e.message : String(e) };
}

function runPoint(
  point: Point,
  index: number,
  table: number,
  title: string,
  algorithm: string,
  label: string,
): { point: PointData; trace: PointTrace } {
  const base = { index, table, tableTitle: title, algorithm, bytes: point.bytes, cores: point.cores };
  try {
    const { result, outcome } = simulatePointTraced(point, { flows: true });
    const loads = outcome.loads ?? [];
    return {
      point: {
        ...base,
        meanNs: result.meanNs,
        ...(result.replayed ? { replayed: result.replayed } : {}),
        events: outcome.events,
        loads,
      },
      trace: { point, label, events: outcome.events, loads },
    };
  } catch (e) {
    if (!(e instanceof UnavailableError)) throw e;
    return {
      point: { ...base, meanNs: NaN, unavailable: e.detail, events: [], loads: [] },
      trace: { point, label, unavailable: e.detail },
    };
  }
}

/** What tells a table from the others of its sweep: its machine (and swept parameters), ranks,
 *  placement, root when roots are swept, rail share and seed. */
function tableTitle(s: Scenario, t: Table): string {
  const share = t.railShare !== undefined ? `, rail share ${t.railShare}` : '';
  const parameters = t.machine.parameters ? ` (${parametersText(t.machine.parameters)})` : '';
  const root = s.rootSweep ? `, root ${t.root}` : '';
  return `${t.machine.ref}${parameters}, ${t.ranks} ranks, ${placementName(t.placement)}${root}${share}, seed ${t.seed}`;
}

function resolveMachine(ref: string, input: RunInput, sources: Sources): MachineSpec {
  const upload = input.uploads.find((u) => u.name === ref);
  if (upload) {
    return /\.xml$/i.test(upload.name)
      ? importHwlocXml(upload.text, upload.name)
      : parseMachineYaml(upload.text, upload.name, { origin: upload.name });
  }
  const preset = sources.presets[ref];
  if (preset !== undefined) return parseMachineYaml(preset, `${ref}.yaml`, { origin: `preset:${ref}` });
  const known = [...Object.keys(sources.presets), ...input.uploads.map((u) => u.name)];
  const hint = didYouMean(ref, known);
  throw new InputError(
    `unknown machine '${ref}'${hint ? ` (did you mean '${hint}'?)` : ''}: the visualizer knows the presets and uploaded files`,
  );
}
