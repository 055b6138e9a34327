// The simulator in a Web Worker: the page stays responsive while points run, and hears of each
// point as it finishes.
import type { PointTrace } from '../../scenarios/trace/chrome-trace.ts';
import type { FromWorker, ToWorker } from './protocol.ts';
import { locate, loadInput, runInput, traceJson } from './simulate.ts';
import { PRESETS } from './sources.ts';

const sources = { presets: PRESETS };
let lastTraces: PointTrace[] = [];

function send(message: FromWorker): void {
  postMessage(message);
}

onmessage = (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  try {
    switch (msg.type) {
      case 'check': {
        const s = loadInput(msg, sources);
        send({ type: 'checked', id: msg.id, machine: s.machines[0].spec });
        break;
      }
      case 'run': {
        const out = runInput(msg, sources, (done, total) => send({ type: 'progress', id: msg.id, done, total }));
        lastTraces = out.traces;
        send({ type: 'result', id: msg.id, run: out.run });
        break;
      }
      case 'trace':
        send({ type: 'trace', id: msg.id, json: traceJson(lastTraces) });
        break;
    }
  } catch (e) {
    send(
      msg.type === 'check'
        ? { type: 'checked', id: msg.id, error: locate(e) }
        : { type: 'error', id: msg.id, error: locate(e) },
    );
  }
};
