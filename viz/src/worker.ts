// The simulator in a Web Worker: the page stays responsive while points run, and hears of each
// point as it finishes.
import type { PointTrace } from '../../scenarios/trace/chrome-trace.ts';
import type { Scenario } from '../../scenarios/scenario.ts';
import { applyEdits } from './machine-edits.ts';
import type { FromWorker, LocatedError, MachineEdit, ToWorker } from './protocol.ts';
import { locate, loadInput, runInput, traceJson, type OriginalSide } from './simulate.ts';
import { PRESETS } from './sources.ts';

const sources = { presets: PRESETS };
let lastTraces: PointTrace[] = [];
/** The last run's side on the unedited machine: a run that changes only the what-if edits reuses it. */
let lastOriginal: OriginalSide | undefined;

function send(message: FromWorker): void {
  postMessage(message);
}

/** The edits tried on every machine of the scenario, as a run would apply them. */
function editsProblem(scenario: Scenario, edits: readonly MachineEdit[]): LocatedError | undefined {
  if (edits.length === 0) return undefined;
  try {
    for (const m of scenario.machines) applyEdits(m.spec, edits);
    return undefined;
  } catch (e) {
    return locate(e);
  }
}

onmessage = (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  try {
    switch (msg.type) {
      case 'check': {
        const s = loadInput(msg, sources);
        send({ type: 'checked', id: msg.id, machine: s.machines[0].spec, editsError: editsProblem(s, msg.edits) });
        break;
      }
      case 'run': {
        const out = runInput(
          msg,
          sources,
          (done, total) => send({ type: 'progress', id: msg.id, done, total }),
          lastOriginal,
        );
        lastTraces = out.traces;
        lastOriginal = out.original;
        send({ type: 'result', id: msg.id, run: out.run });
        break;
      }
      case 'trace':
        send({ type: 'trace', id: msg.id, json: traceJson(lastTraces) });
        break;
    }
  } catch (e) {
    if (msg.type === 'run') lastTraces = [];
    send(
      msg.type === 'check'
        ? { type: 'checked', id: msg.id, error: locate(e) }
        : { type: 'error', id: msg.id, error: locate(e) },
    );
  }
};
