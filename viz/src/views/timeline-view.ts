// Timeline: one row per rank, each step a bar coloured by kind, drawn on a canvas so 64 ranks and
// 100,000 steps pan smoothly: each frame draws only the steps in view, and steps narrower than a
// pixel that fall on a pixel already drawn are skipped. Wheel zooms around the pointer, dragging pans.
import { scaleLinear } from 'd3';
import type { TraceEvent } from '../../../sim/node/trace.ts';
import { assignLanes } from '../../../scenarios/trace/lanes.ts';
import { bytesLabel, formatNs, IDLE_COLOUR, kindColour } from '../look.ts';

interface Lane {
  /** Steps of this lane in time order; they never overlap, so ends are in order too. */
  starts: Float64Array;
  ends: Float64Array;
  events: TraceEvent[];
}

interface Row {
  label: string;
  lanes: Lane[];
}

const LABEL_WIDTH = 118;
const AXIS_HEIGHT = 22;
const MAX_ROW_HEIGHT = 28;
const MIN_ROW_HEIGHT = 6;

export interface PanMeasure {
  /** Frames drawn. */
  frames: number;
  /** Rows each frame drew, and the fewest steps any frame painted. */
  rows: number;
  minStepsPainted: number;
  /** Where the pan's first window began and its last one ended (ns). */
  from: number;
  to: number;
  /** Frames per second over the whole pan, as the browser delivered them. */
  fps: number;
  /** Mean and worst time to draw one frame (ms). */
  meanDrawMs: number;
  maxDrawMs: number;
}

export class TimelineView {
  readonly element: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly tip: HTMLElement;
  private readonly legend: HTMLElement;
  private rows: Row[] = [];
  private t0 = 0;
  private t1 = 1;
  private full: [number, number] = [0, 1];
  private drag: { x: number; t0: number; t1: number } | undefined;
  private pending = false;

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'timeline';
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'timeline-canvas';
    this.tip = document.createElement('div');
    this.tip.className = 'tooltip';
    this.tip.hidden = true;
    this.legend = document.createElement('div');
    this.legend.className = 'legend';
    this.element.append(this.legend, this.canvas, this.tip);
    this.canvas.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    this.canvas.addEventListener('mousedown', (e) => (this.drag = { x: e.offsetX, t0: this.t0, t1: this.t1 }));
    window.addEventListener('mouseup', () => (this.drag = undefined));
    this.canvas.addEventListener('mousemove', (e) => this.onMove(e));
    this.canvas.addEventListener('mouseleave', () => (this.tip.hidden = true));
    this.canvas.addEventListener('dblclick', () => this.setWindow(...this.full));
    new ResizeObserver(() => this.schedule()).observe(this.element);
  }

  /** The steps of one run; `labels[rank]` names each row. */
  show(events: readonly TraceEvent[], labels: string[]): void {
    const { lane, lanesOf } = assignLanes(events);
    const rows: Row[] = labels.map((label, rank) => ({
      label,
      lanes: Array.from({ length: Math.max(1, lanesOf.get(rank) ?? 0) }, () => ({
        starts: new Float64Array(0),
        ends: new Float64Array(0),
        events: [] as TraceEvent[],
      })),
    }));
    events.forEach((e, i) => rows[e.rank]?.lanes[lane[i]].events.push(e));
    for (const row of rows) {
      for (const l of row.lanes) {
        l.events.sort((a, b) => a.start - b.start || a.end - b.end);
        l.starts = Float64Array.from(l.events, (e) => e.start);
        l.ends = Float64Array.from(l.events, (e) => e.end);
      }
    }
    this.rows = rows;
    let lo = Infinity;
    let hi = -Infinity;
    for (const e of events) {
      lo = Math.min(lo, e.start);
      hi = Math.max(hi, e.end);
    }
    this.full = Number.isFinite(lo) && hi > lo ? [lo, hi] : [0, 1];
    const kinds = [...new Set(events.map((e) => e.kind))].sort();
    this.legend.replaceChildren(
      ...[...kinds.map((k) => [k, kindColour(k)]), ['idle', IDLE_COLOUR]].map(([name, colour]) => {
        const item = document.createElement('span');
        const swatch = document.createElement('i');
        swatch.style.background = colour;
        item.append(swatch, name);
        return item;
      }),
    );
    this.canvas.dataset.rows = String(rows.length);
    this.canvas.dataset.steps = String(events.length);
    this.setWindow(...this.full);
  }

  setWindow(t0: number, t1: number): void {
    this.t0 = t0;
    this.t1 = t1;
    this.schedule();
  }

  get window(): [number, number] {
    return [this.t0, this.t1];
  }

  /** Pans across the whole run one step per animation frame, measuring frame rate and draw time. */
  measurePan(frames: number): Promise<PanMeasure> {
    const [lo, hi] = this.full;
    const width = (hi - lo) / 10;
    const draws: number[] = [];
    let minStepsPainted = Infinity;
    return new Promise((done) => {
      let frame = 0;
      let first = 0;
      const step = (now: number) => {
        if (frame === 0) first = now;
        if (frame === frames) {
          const elapsed = now - first;
          done({
            frames: draws.length,
            rows: this.rows.length,
            minStepsPainted,
            from: lo,
            to: this.t1,
            fps: (frames * 1000) / elapsed,
            meanDrawMs: draws.reduce((a, b) => a + b, 0) / draws.length,
            maxDrawMs: Math.max(...draws),
          });
          return;
        }
        // From the window at the run's start to the one at its end.
        const t0 = lo + ((hi - lo - width) * frame) / Math.max(1, frames - 1);
        this.t0 = t0;
        this.t1 = t0 + width;
        const start = performance.now();
        minStepsPainted = Math.min(minStepsPainted, this.draw());
        draws.push(performance.now() - start);
        frame++;
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
  }

  /** The canvas as a PNG data URL. */
  png(): string {
    return this.canvas.toDataURL('image/png');
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw();
    });
  }

  private rowHeight(): number {
    const free = Math.max(1, this.element.clientHeight - this.legend.offsetHeight - AXIS_HEIGHT - 4);
    return Math.max(MIN_ROW_HEIGHT, Math.min(MAX_ROW_HEIGHT, Math.floor(free / Math.max(1, this.rows.length))));
  }

  /** Draws the window; returns how many steps it painted. */
  private draw(): number {
    let painted = 0;
    const ratio = window.devicePixelRatio || 1;
    const width = this.element.clientWidth;
    const rowH = this.rowHeight();
    const height = AXIS_HEIGHT + rowH * this.rows.length + 4;
    if (this.canvas.width !== Math.round(width * ratio) || this.canvas.height !== Math.round(height * ratio)) {
      this.canvas.width = Math.round(width * ratio);
      this.canvas.height = Math.round(height * ratio);
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
    }
    const ctx = this.canvas.getContext('2d')!;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const plotW = Math.max(1, width - LABEL_WIDTH - 8);
    const x = scaleLinear()
      .domain([this.t0, this.t1])
      .range([LABEL_WIDTH, LABEL_WIDTH + plotW]);
    const perNs = plotW / (this.t1 - this.t0);
    // Time axis.
    ctx.fillStyle = '#333';
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    // Times from the start of the measured iterations.
    const origin = this.full[0];
    const rel = scaleLinear().domain([this.t0 - origin, this.t1 - origin]);
    for (const t of rel.ticks(Math.max(2, Math.floor(plotW / 110)))) {
      const px = x(t + origin);
      ctx.fillRect(px, AXIS_HEIGHT - 5, 1, 5);
      ctx.fillText(formatNs(t), px + 3, AXIS_HEIGHT / 2);
    }
    this.rows.forEach((row, r) => {
      const y = AXIS_HEIGHT + r * rowH;
      ctx.fillStyle = IDLE_COLOUR;
      ctx.fillRect(LABEL_WIDTH, y + 1, plotW, rowH - 2);
      if (rowH >= 8) {
        ctx.fillStyle = '#222';
        ctx.font = `${Math.min(11, rowH - 1)}px system-ui, sans-serif`;
        ctx.fillText(row.label, 4, y + rowH / 2);
      }
      const laneH = (rowH - 2) / row.lanes.length;
      row.lanes.forEach((lane, l) => {
        const ly = y + 1 + l * laneH;
        let i = firstEndingAfter(lane.ends, this.t0);
        let lastPx = -1;
        let colour = '';
        for (; i < lane.starts.length && lane.starts[i] <= this.t1; i++) {
          const x0 = LABEL_WIDTH + Math.max(0, (lane.starts[i] - this.t0) * perNs);
          const x1 = LABEL_WIDTH + Math.min(plotW, (lane.ends[i] - this.t0) * perNs);
          const px = Math.floor(x0);
          if (x1 - x0 < 1 && px === lastPx) continue;
          lastPx = Math.floor(x1);
          const c = kindColour(lane.events[i].kind);
          if (c !== colour) ctx.fillStyle = colour = c;
          ctx.fillRect(x0, ly, Math.max(1, x1 - x0), Math.max(1, laneH - (row.lanes.length > 1 ? 0.5 : 0)));
          painted++;
        }
      });
    });
    return painted;
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const plotW = Math.max(1, this.element.clientWidth - LABEL_WIDTH - 8);
    const at = this.t0 + ((e.offsetX - LABEL_WIDTH) / plotW) * (this.t1 - this.t0);
    const factor = Math.exp(e.deltaY * 0.002);
    const span = Math.max(1, (this.t1 - this.t0) * factor);
    const left = (at - this.t0) / (this.t1 - this.t0);
    this.setWindow(at - left * span, at + (1 - left) * span);
  }

  private onMove(e: MouseEvent): void {
    const plotW = Math.max(1, this.element.clientWidth - LABEL_WIDTH - 8);
    if (this.drag) {
      const dt = ((e.offsetX - this.drag.x) / plotW) * (this.drag.t1 - this.drag.t0);
      this.setWindow(this.drag.t0 - dt, this.drag.t1 - dt);
      this.tip.hidden = true;
      return;
    }
    const rowH = this.rowHeight();
    const r = Math.floor((e.offsetY - AXIS_HEIGHT) / rowH);
    const row = this.rows[r];
    if (!row || e.offsetX < LABEL_WIDTH) {
      this.tip.hidden = true;
      return;
    }
    const laneH = (rowH - 2) / row.lanes.length;
    const lane =
      row.lanes[
        Math.min(row.lanes.length - 1, Math.max(0, Math.floor((e.offsetY - AXIS_HEIGHT - r * rowH - 1) / laneH)))
      ];
    const t = this.t0 + ((e.offsetX - LABEL_WIDTH) / plotW) * (this.t1 - this.t0);
    // Within two pixels, so a step narrower than a pixel can still be found.
    const slack = (2 / plotW) * (this.t1 - this.t0);
    const i = firstEndingAfter(lane.ends, t - slack);
    const ev = i < lane.starts.length && lane.starts[i] <= t + slack ? lane.events[i] : undefined;
    if (!ev) {
      this.tip.hidden = true;
      return;
    }
    this.tip.hidden = false;
    this.tip.innerHTML = '';
    const lines = [
      `<b>${escape(ev.label)}</b> <span class="kind" style="background:${kindColour(ev.kind)}"></span> ${escape(ev.kind)}`,
      `${row.label}`,
      `start ${formatNs(ev.start - this.full[0])}, duration ${formatNs(ev.end - ev.start)}`,
      ev.bytes > 0 ? `${bytesLabel(ev.bytes)}` : '',
      ev.resource ? `bounded by ${escape(ev.resource)}` : '',
    ].filter((s) => s !== '');
    this.tip.innerHTML = lines.join('<br>');
    this.tip.style.left = `${Math.min(e.offsetX + 12, this.element.clientWidth - 260)}px`;
    this.tip.style.top = `${e.offsetY + 12}px`;
  }
}

/** Index of the first step whose end is at or after `t` (ends are sorted within a lane). */
function firstEndingAfter(ends: Float64Array, t: number): number {
  let lo = 0;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ends[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function escape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
