// The visualizer page: the editor and the what-if form on the left, the views on the right, the
// simulator in a worker. Everything a view needs comes from one run's data (protocol.ts).
import './style.css';
import { formatInputError } from '../../common/input-error.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import type { TraceEvent } from '../../sim/node/trace.ts';
import { download, pngOfDataUrl, pngOfSvg, svgBlob, svgOfImage } from './export.ts';
import { formatNs } from './look.ts';
import type {
  FromWorker,
  LocatedError,
  MachineEdit,
  PointData,
  RunData,
  RunInput,
  ToWorker,
  Upload,
} from './protocol.ts';
import { DEFAULT_SCENARIO, PRESETS, SCENARIOS } from './sources.ts';
import { decodeState, encodeState } from './url-state.ts';
import { ComparisonView, type PickedPoint } from './views/comparison-view.ts';
import { EditorView } from './views/editor-view.ts';
import { EditsView } from './views/edits-view.ts';
import { MachineView } from './views/machine-view.ts';
import { TimelineView } from './views/timeline-view.ts';
import { UtilisationView } from './views/utilisation-view.ts';

const TABS = ['comparison', 'timeline', 'machine', 'utilisation'] as const;
type Tab = (typeof TABS)[number];

/** Figures the browser test reads (and prints): how long rendering took, how smooth the page stayed. */
interface Metrics {
  runs: number;
  progressMessages: number;
  /** From the result's arrival to the first frame painted with it (ms). */
  renderMs?: number;
  /** Longest gap between animation frames while the last run was under way (ms). */
  maxFrameGapMs?: number;
  lastError?: string;
}

const metrics: Metrics = { runs: 0, progressMessages: 0 };
const initial = decodeState(location.hash, TABS);
let uploads: Upload[] = [];
let edits: MachineEdit[] = initial.edits;
let run: RunData | undefined;
let picked: PickedPoint | undefined;
let tab: Tab = (initial.tab as Tab | undefined) ?? 'comparison';
/** The machine the what-if edits were made for: edits name its parts. */
let editsFor: MachineSpec | undefined;
let nextId = 1;
let runId = 0;
/** The scenario, machine and edits the shown run ran with: its picked point and comparison choices
 *  go into the link only while the page still holds the same. */
let runKey: string | undefined;
let checkId = 0;

const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });

// ---- layout
const app = document.getElementById('app')!;
const header = el('header', 'top');
const title = el('h1');
title.textContent = 'intranode';
const scenarioSelect = document.createElement('select');
scenarioSelect.name = 'scenario-file';
scenarioSelect.append(
  new Option('scenario…', ''),
  ...Object.keys(SCENARIOS)
    .sort()
    .map((n) => new Option(n, n)),
);
const machineSelect = document.createElement('select');
machineSelect.name = 'machine';
const upload = document.createElement('input');
upload.type = 'file';
upload.accept = '.yaml,.yml,.xml';
upload.name = 'upload';
const uploadLabel = el('label', 'upload');
uploadLabel.append('upload machine ', upload);
const runButton = document.createElement('button');
runButton.textContent = 'Run';
runButton.name = 'run';
runButton.className = 'primary';
const progress = document.createElement('progress');
progress.max = 1;
progress.value = 0;
const status = el('span', 'status');
// What the page could not do as asked (a link it could not read in full, edits it had to drop):
// kept apart from the status line so that a run's progress does not overwrite it.
const notice = el('span', 'notice');
notice.hidden = true;
type NoticeTopic = 'link' | 'machine' | 'edits' | 'dropped' | 'pick';
const notices = new Map<NoticeTopic, string>();
function setNotice(topic: NoticeTopic, text: string | undefined): void {
  if (text === undefined) notices.delete(topic);
  else notices.set(topic, text);
  notice.textContent = [...notices.values()].join('; ');
  notice.hidden = notices.size === 0;
}
header.append(title, scenarioSelect, machineSelect, uploadLabel, runButton, progress, status, notice);

const left = el('aside', 'left');
const editor = new EditorView(initial.scenario ?? SCENARIOS[DEFAULT_SCENARIO]);
const editsView = new EditsView();
left.append(editor.element, editsView.element);

const main = el('main', 'views');
const tabBar = el('nav', 'tabs');
const exportBar = el('span', 'exports');
const panels = new Map<Tab, HTMLElement>();
const comparison = new ComparisonView();
const timeline = new TimelineView();
const machine = new MachineView();
const utilisation = new UtilisationView();
const pointTitle = el('div', 'point-title');
const views: Record<Tab, HTMLElement> = {
  comparison: comparison.element,
  timeline: timeline.element,
  machine: machine.element,
  utilisation: utilisation.element,
};
for (const t of TABS) {
  const b = document.createElement('button');
  b.textContent = t[0].toUpperCase() + t.slice(1);
  b.dataset.tab = t;
  b.addEventListener('click', () => selectTab(t));
  tabBar.append(b);
  const panel = el('section', `panel panel-${t}`);
  panel.append(views[t]);
  panels.set(t, panel);
}
for (const [name, action] of [
  ['SVG', () => exportPlot('svg')],
  ['PNG', () => exportPlot('png')],
  ['Trace JSON', exportTrace],
] as const) {
  const b = document.createElement('button');
  b.textContent = name;
  b.name = `export-${name.split(' ')[0].toLowerCase()}`;
  b.addEventListener('click', () => {
    Promise.resolve(action()).catch((e: unknown) => {
      status.textContent = `export failed: ${e instanceof Error ? e.message : String(e)}`;
    });
  });
  exportBar.append(b);
}
tabBar.append(exportBar);
main.append(tabBar, pointTitle, ...panels.values());
const body = el('div', 'body');
body.append(left, main);
app.append(header, body);

// ---- machine choice
/** A machine a link names that is neither a preset nor uploaded: links carry no uploaded files. */
let missingMachine = initial.machine !== undefined && !(initial.machine in PRESETS) ? initial.machine : undefined;
function fillMachines(current = machineSelect.value): void {
  if (uploads.some((u) => u.name === missingMachine)) missingMachine = undefined;
  machineSelect.replaceChildren(
    new Option("scenario's machine", ''),
    ...Object.keys(PRESETS)
      .sort()
      .map((n) => new Option(n, n)),
    ...uploads.map((u) => new Option(`${u.name} (uploaded)`, u.name)),
    ...(missingMachine ? [new Option(`${missingMachine} (not uploaded)`, missingMachine)] : []),
  );
  machineSelect.value = current;
  setNotice(
    'machine',
    missingMachine &&
      `the link runs on '${missingMachine}', a file uploaded where it was made: upload it again, or choose another machine`,
  );
}
fillMachines(initial.machine ?? '');

// ---- worker traffic
worker.onmessage = (ev: MessageEvent<FromWorker>) => {
  const msg = ev.data;
  switch (msg.type) {
    case 'progress':
      if (msg.id !== runId) return;
      metrics.progressMessages++;
      progress.max = msg.total;
      progress.value = msg.done;
      status.textContent = `running: ${msg.done} of ${msg.total} points`;
      break;
    case 'result':
      if (msg.id !== runId) return;
      received(msg.run);
      break;
    case 'error':
      if (msg.id !== runId) return;
      running = false;
      runButton.disabled = false;
      // The views, the link and the trace export would otherwise go on showing the earlier run as
      // if it were this one's.
      run = undefined;
      picked = undefined;
      runKey = undefined;
      comparison.clear();
      showPoint();
      showError(msg.error);
      break;
    case 'checked':
      if (msg.id !== checkId) return;
      editor.showError(msg.error);
      if (msg.machine && showMachineFields(msg.machine)) return; // edits dropped: a new check follows
      setNotice('edits', msg.editsError && `the what-if edits do not fit this machine: ${describe(msg.editsError)}`);
      break;
    case 'trace':
      download(`${run?.name ?? 'run'}.trace.json`, new Blob([msg.json], { type: 'application/json' }));
      break;
  }
};
worker.onerror = (e) => {
  metrics.lastError = e.message;
  status.textContent = `worker failed: ${e.message}`;
};

function input(): RunInput {
  return { scenario: editor.text, ...(machineSelect.value ? { machine: machineSelect.value } : {}), edits, uploads };
}

function inputKey(): string {
  return JSON.stringify([editor.text, machineSelect.value, edits]);
}

function post(msg: ToWorker): void {
  worker.postMessage(msg);
}

let checkTimer: number | undefined;
function check(): void {
  window.clearTimeout(checkTimer);
  checkTimer = window.setTimeout(() => {
    checkId = nextId++;
    post({ type: 'check', id: checkId, ...input() });
  }, 200);
}

let fieldsOf: MachineSpec | undefined;
/**
 * Shows the what-if form of the scenario's machine. Edits made for another machine name parts this
 * one may not have, so they are dropped, saying so; returns whether they were.
 */
function showMachineFields(spec: MachineSpec): boolean {
  if (sameMachine(fieldsOf, spec)) return false;
  fieldsOf = spec;
  const dropped = editsFor !== undefined && !sameMachine(editsFor, spec) && edits.length > 0;
  if (dropped) {
    setNotice('dropped', `the what-if edits were for ${editsFor!.name}, not ${spec.name}: cleared`);
    edits = [];
    saveState();
    check();
  }
  editsFor = spec;
  editsView.show(spec, edits);
  return dropped;
}

/** One machine by where it came from and its name (the worker sends a new copy with each check). */
function sameMachine(a: MachineSpec | undefined, b: MachineSpec): boolean {
  return a !== undefined && a.name === b.name && a.origin === b.origin;
}

let running = false;
function startRun(): void {
  setNotice('link', undefined);
  setNotice('pick', undefined);
  setNotice('dropped', undefined);
  runId = nextId++;
  running = true;
  metrics.runs++;
  metrics.renderMs = undefined;
  runButton.disabled = true;
  progress.value = 0;
  status.textContent = 'running…';
  watchFrames();
  runKey = inputKey();
  post({ type: 'run', id: runId, ...input() });
}

/** Measures the longest gap between animation frames while a run is under way. */
function watchFrames(): void {
  let last = performance.now();
  let worst = 0;
  const tick = (now: number) => {
    worst = Math.max(worst, now - last);
    last = now;
    if (running) requestAnimationFrame(tick);
    else metrics.maxFrameGapMs = worst;
  };
  requestAnimationFrame(tick);
}

function received(data: RunData): void {
  const arrived = performance.now();
  running = false;
  runButton.disabled = false;
  run = data;
  const ran = data.original.points.filter((p) => !p.unavailable).length;
  status.textContent = `${data.name}: ${data.original.points.length} points${data.whatIf ? ' and their what-if' : ''}, ${data.original.points.length - ran} n/a`;
  picked = restorePick() ?? defaultPick(data);
  comparison.show(data, picked, { table: initial.table, baseline: initial.baseline });
  initial.table = undefined;
  initial.baseline = undefined;
  showPoint();
  requestAnimationFrame(() => requestAnimationFrame(() => (metrics.renderMs = performance.now() - arrived)));
}

function restorePick(): PickedPoint | undefined {
  const p = initial.pick;
  initial.pick = undefined;
  if (!p || !run) return undefined;
  const side = p[0] === 'w' ? 'whatIf' : 'original';
  const index = Number(p.slice(1));
  if ((side === 'whatIf' ? run.whatIf : run.original)?.points[index]) return { side, index };
  setNotice('pick', `the link's picked point (p=${p}) is not in this run`);
  return undefined;
}

/** The largest size of the first algorithm that ran, on the original machine. */
function defaultPick(data: RunData): PickedPoint | undefined {
  const ok = data.original.points.filter((p) => !p.unavailable && p.table === 0);
  if (ok.length === 0) return undefined;
  const first = ok.filter((p) => p.algorithm === ok[0].algorithm);
  return { side: 'original', index: first[first.length - 1].index };
}

function pickedPoint(): { point: PointData; machine: MachineSpec } | undefined {
  if (!run || !picked) return undefined;
  const side = picked.side === 'whatIf' ? run.whatIf : run.original;
  const point = side?.points[picked.index];
  return side && point ? { point, machine: side.machines[point.table] } : undefined;
}

function showPoint(): void {
  const found = pickedPoint();
  saveState();
  if (!found) {
    pointTitle.textContent = run ? 'pick a point in the comparison to see its run' : 'edit the scenario and press Run';
    timeline.show([], []);
    machine.clear();
    utilisation.clear();
    return;
  }
  const { point, machine: spec } = found;
  const name = `${point.algorithm}${picked!.side === 'whatIf' ? ' (what-if)' : ''}, ${point.bytes} bytes, ${point.tableTitle}`;
  if (point.unavailable !== undefined) {
    // A link may pick a point the machine could not run; a click never can (it has no circle).
    pointTitle.textContent = `${name}: n/a (${point.unavailable})`;
    timeline.show([], []);
    machine.clear();
    utilisation.clear();
    return;
  }
  const replayed = point.replayed
    ? `; ${point.replayed.calls} of its ${point.replayed.of} calls started in an earlier call's state and repeat it, not simulated again`
    : '';
  pointTitle.textContent = `${name}: ${formatNs(point.meanNs)} per call, ${point.events.length} steps in the measured iterations${replayed}`;
  const coreOf = new Map(spec.cores.map((c) => [c.id, c]));
  const labels = point.cores.map((core, rank) => `rank ${rank} · core ${core} · N${coreOf.get(core)?.numa ?? '?'}`);
  timeline.show(point.events, labels);
  machine.show(spec, point.cores, point.loads, point.events);
  utilisation.show(point.loads, `${point.algorithm}, ${point.bytes} bytes`);
}

function selectTab(t: Tab): void {
  tab = t;
  for (const [name, panel] of panels) panel.hidden = name !== t;
  tabBar
    .querySelectorAll<HTMLButtonElement>('button[data-tab]')
    .forEach((b) => b.classList.toggle('active', b.dataset.tab === t));
  saveState();
}

function saveState(): void {
  const hash = encodeState({
    scenario: editor.text,
    ...(machineSelect.value ? { machine: machineSelect.value } : {}),
    edits,
    tab,
    ...shownRun(),
  });
  history.replaceState(null, '', `#${hash}`);
}

/** The picked point and the comparison's choices: a link's own until its run has come (so that a
 *  link not run yet keeps them), then the run's while the page holds what it ran with. */
function shownRun(): { pick?: string; table?: number; baseline?: string } {
  if (!run) return { pick: initial.pick, table: initial.table, baseline: initial.baseline };
  if (runKey !== inputKey()) return {};
  const baseline = comparison.baseline;
  return {
    ...(picked ? { pick: `${picked.side === 'whatIf' ? 'w' : 'o'}${picked.index}` } : {}),
    ...(comparison.table ? { table: comparison.table } : {}),
    ...(baseline && baseline !== run.baseline ? { baseline } : {}),
  };
}

function showError(error: LocatedError): void {
  metrics.lastError = error.message;
  status.textContent = `cannot run: ${describe(error)}`;
  editor.showError(error);
}

function describe(error: LocatedError): string {
  return formatInputError(error.message, error);
}

async function exportPlot(kind: 'svg' | 'png'): Promise<void> {
  if (!pickedPoint() && tab !== 'comparison') {
    status.textContent = `nothing to export: ${run ? 'pick a point in the comparison first' : 'press Run first'}`;
    return;
  }
  const name = `${run?.name ?? 'intranode'}-${tab}`;
  if (tab === 'timeline') {
    const png = timeline.png();
    const canvas = timeline.element.querySelector('canvas')!;
    download(
      `${name}.${kind}`,
      kind === 'png' ? await pngOfDataUrl(png) : svgOfImage(png, canvas.clientWidth, canvas.clientHeight),
    );
    return;
  }
  const svg = tab === 'comparison' ? comparison.svg() : tab === 'machine' ? machine.svg() : utilisation.svg();
  if (!svg) {
    status.textContent = 'nothing to export: press Run first';
    return;
  }
  download(`${name}.${kind}`, kind === 'svg' ? svgBlob(svg) : await pngOfSvg(svg));
}

function exportTrace(): void {
  if (run) post({ type: 'trace', id: nextId++ });
  else status.textContent = 'no trace to export: press Run first';
}

// ---- wiring
editor.onChange = () => {
  saveState();
  check();
};
editsView.onChange = (next) => {
  edits = [...next];
  saveState();
  check();
};
comparison.onChoice = saveState;
comparison.onPick = (p) => {
  picked = p;
  comparison.pick(p);
  showPoint();
  selectTab('timeline');
};
runButton.addEventListener('click', startRun);
scenarioSelect.addEventListener('change', () => {
  if (!scenarioSelect.value) return;
  editor.text = SCENARIOS[scenarioSelect.value];
  scenarioSelect.value = '';
  fieldsOf = undefined;
  saveState();
  check();
});
machineSelect.addEventListener('change', () => {
  fieldsOf = undefined;
  editsFor = undefined;
  if (missingMachine !== undefined && machineSelect.value !== missingMachine) {
    missingMachine = undefined;
    fillMachines();
  }
  edits = [];
  saveState();
  check();
});
upload.addEventListener('change', () => void addUpload());
async function addUpload(): Promise<void> {
  const file = upload.files?.[0];
  if (!file) return;
  uploads = [...uploads.filter((u) => u.name !== file.name), { name: file.name, text: await file.text() }];
  fillMachines();
  machineSelect.value = file.name;
  fieldsOf = undefined;
  editsFor = undefined;
  edits = [];
  saveState();
  check();
}

selectTab(tab);
showPoint();
check();
// A shared link opens on its results, unless part of it could not be read or its machine is not
// here: results of something other than what the link holds would pass for its own.
if (initial.problems.length > 0)
  setNotice('link', `${initial.problems.join('; ')}: press Run to run what the link does hold`);
else if (initial.scenario !== undefined && missingMachine === undefined) startRun();

// The browser test drives the page through these.
Object.assign(window, {
  __viz: {
    metrics,
    /** A timeline of `ranks` rows and `steps` steps, made up, to measure panning. */
    syntheticTimeline(ranks: number, steps: number): { steps: number; end: number } {
      const events: TraceEvent[] = [];
      const kinds = ['copy', 'wait', 'poll', 'syscall', 'control'];
      const perRank = Math.ceil(steps / ranks);
      for (let r = 0; r < ranks; r++) {
        let t = 0;
        for (let i = 0; i < perRank && events.length < steps; i++) {
          const d = 20 + ((i * 7919 + r * 104729) % 400);
          events.push({
            rank: r,
            kind: kinds[(i + r) % kinds.length],
            label: `step ${i}`,
            start: t,
            end: t + d,
            bytes: 4096,
          });
          t += d + ((i * 31) % 50);
        }
      }
      selectTab('timeline');
      pointTitle.textContent = `a made-up timeline of ${ranks} ranks and ${events.length} steps (to measure panning)`;
      timeline.show(
        events,
        Array.from({ length: ranks }, (_, r) => `rank ${r}`),
      );
      return { steps: events.length, end: events.reduce((end, e) => Math.max(end, e.end), 0) };
    },
    measurePan: (frames: number) => timeline.measurePan(frames),
  },
});

function el(tag: string, className?: string): HTMLElement {
  const e = document.createElement(tag);
  if (className) e.className = className;
  return e;
}
