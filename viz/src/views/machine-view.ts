// Machine: the node drawn from its MachineSpec. Packages side by side with their cores (ranks
// marked on theirs), shared caches under the cores, the NUMA nodes' memory controllers, hubs,
// the links between them (one line per direction), I/O buses and NICs. A package with many cores
// starts collapsed and opens on a click. During playback every resource is coloured by its
// utilisation at the scrubber's time; hovering one shows its capacity and the flows crossing it.
import { type Selection } from 'd3';
import { describeIds } from '../../../scenarios/placement.ts';
import { freshSvg, rect, type Box } from './svg.ts';
import type { MachineSpec } from '../../../hardware/spec.ts';
import { peerLatency } from '../../../sim/node/topology.ts';
import type { LoadSeries } from '../../../sim/flow/load-recorder.ts';
import type { TraceEvent } from '../../../sim/node/trace.ts';
import { bandwidthLabel, bytesLabel, formatNs, utilisationColour } from '../look.ts';

const CORE = 20;
const GAP = 3;
const PAD = 10;
/** A package's shared caches are drawn as labelled bars up to this many, as small tiles beyond. */
const BARS_UP_TO = 6;
const TILE = 30;
const TILE_H = 12;
/** Packages with more cores than this start collapsed. */
const COLLAPSE_ABOVE = 48;

type G = Selection<SVGGElement, unknown, null, undefined>;

export class MachineView {
  readonly element: HTMLElement;
  private readonly holder: HTMLElement;
  private readonly tip: HTMLElement;
  private readonly scrubber: HTMLInputElement;
  private readonly playButton: HTMLButtonElement;
  private readonly clock: HTMLElement;
  private spec: MachineSpec | undefined;
  private cores: number[] = [];
  private series = new Map<string, LoadSeries>();
  private events: readonly TraceEvent[] = [];
  private span: [number, number] = [0, 1];
  private readonly collapsed = new Set<number>();
  private playing = false;
  /** Shapes that show a resource, to recolour without redrawing. */
  private painted: { el: SVGElement; resource: string; attr: 'fill' | 'stroke' }[] = [];

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'machine';
    const bar = document.createElement('div');
    bar.className = 'controls';
    this.playButton = document.createElement('button');
    this.playButton.textContent = 'Play';
    this.playButton.name = 'play';
    this.scrubber = document.createElement('input');
    this.scrubber.type = 'range';
    this.scrubber.min = '0';
    this.scrubber.max = '1000';
    this.scrubber.value = '0';
    this.scrubber.name = 'time';
    this.scrubber.className = 'scrubber';
    this.clock = document.createElement('span');
    this.clock.className = 'clock';
    const scale = document.createElement('span');
    scale.className = 'scale';
    const ramp = document.createElement('i');
    ramp.style.background = `linear-gradient(to right, ${[0.001, 0.25, 0.5, 0.75, 1].map(utilisationColour).join(', ')})`;
    scale.append('utilisation 0% ', ramp, ' 100%');
    bar.append(this.playButton, this.scrubber, this.clock, scale);
    this.holder = document.createElement('div');
    this.holder.className = 'machine-holder';
    this.tip = document.createElement('div');
    this.tip.className = 'tooltip';
    this.tip.hidden = true;
    this.element.append(bar, this.holder, this.tip);
    this.scrubber.addEventListener('input', () => this.paint());
    this.playButton.addEventListener('click', () => this.toggle());
  }

  show(spec: MachineSpec, cores: number[], loads: readonly LoadSeries[], events: readonly TraceEvent[]): void {
    if (spec !== this.spec) {
      this.collapsed.clear();
      for (const p of spec.packages)
        if (spec.cores.filter((c) => c.package === p.id).length > COLLAPSE_ABOVE) this.collapsed.add(p.id);
    }
    this.spec = spec;
    this.cores = cores;
    this.series = new Map(loads.map((s) => [s.resource, s]));
    this.events = events;
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of loads) {
      lo = Math.min(lo, s.times[0]);
      hi = Math.max(hi, s.times[s.times.length - 1]);
    }
    this.span = Number.isFinite(lo) && hi > lo ? [lo, hi] : [0, 1];
    this.draw();
  }

  svg(): SVGSVGElement | null {
    return this.holder.querySelector('svg');
  }

  /** No point to draw (no run, or one with every point n/a): nothing of an earlier run stays. */
  clear(): void {
    if (this.playing) this.toggle();
    this.spec = undefined;
    this.cores = [];
    this.series.clear();
    this.events = [];
    this.painted = [];
    this.holder.replaceChildren();
    this.tip.hidden = true;
  }

  /** Moves the scrubber to a fraction of the run (0..1). */
  seek(fraction: number): void {
    this.scrubber.value = String(Math.round(fraction * 1000));
    this.paint();
  }

  private now(): number {
    return this.span[0] + (Number(this.scrubber.value) / 1000) * (this.span[1] - this.span[0]);
  }

  private toggle(): void {
    this.playing = !this.playing;
    this.playButton.textContent = this.playing ? 'Pause' : 'Play';
    if (!this.playing) return;
    if (Number(this.scrubber.value) >= 1000) this.scrubber.value = '0';
    const tick = () => {
      if (!this.playing) return;
      const v = Number(this.scrubber.value) + 4;
      this.scrubber.value = String(Math.min(1000, v));
      this.paint();
      if (v >= 1000) this.toggle();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  private draw(): void {
    const spec = this.spec!;
    this.painted = [];
    const rankOf = new Map(this.cores.map((core, rank) => [core, rank]));
    // A square-ish grid: four sockets in a ring or mesh draw as a 2 x 2 square, not a row whose
    // diagonal links would run under the packages between.
    // With hubs (a north bridge every socket hangs off), the packages stand in one row above them.
    const n = spec.packages.length;
    const perRow = spec.hubs.length > 0 && n <= 8 ? n : Math.max(Math.min(2, n), Math.ceil(Math.sqrt(n)));
    // Lay out every package first to know the sizes.
    const layouts = spec.packages.map((p) => this.layoutPackage(spec, p.id));
    const colW = Math.max(...layouts.map((l) => l.w)) + 130;
    const rowH = Math.max(...layouts.map((l) => l.h)) + 70;
    const vertex = new Map<string, Box>();
    spec.packages.forEach((p, i) => {
      const box = {
        x: 20 + (i % perRow) * colW,
        y: 20 + Math.floor(i / perRow) * rowH,
        w: layouts[i].w,
        h: layouts[i].h,
      };
      vertex.set(`pkg${p.id}`, box);
    });
    const rows = Math.ceil(spec.packages.length / perRow);
    // Hubs centred under the packages.
    const hubsLeft = 20 + Math.max(0, (perRow * colW - 130 - (spec.hubs.length * 200 - 50)) / 2);
    spec.hubs.forEach((h, i) => vertex.set(h.id, { x: hubsLeft + i * 200, y: 20 + rows * rowH, w: 150, h: 40 }));
    const numaY = 20 + rows * rowH + (spec.hubs.length > 0 ? 70 : 0);
    const width = Math.max(20 + perRow * colW, 20 + spec.hubs.length * 200, 20 + spec.ioBuses.length * 170) + 20;
    const height = numaY + 70 + (spec.ioBuses.length > 0 ? 60 : 0);
    const svg = freshSvg(this.holder, 'machine-plot', width, height);
    // Labels drawn over shapes coloured by utilisation keep a white halo, so they stay readable on dark red.
    svg
      .append('style')
      .text('text.on-load { stroke: white; stroke-width: 3px; paint-order: stroke; stroke-linejoin: round; }');
    const root = svg.append('g') as unknown as G;
    // Links first, under the boxes; each direction a line of its own, side by side.
    for (const link of spec.links) {
      const a = vertex.get(link.a);
      const b = vertex.get(link.b);
      if (!a || !b) continue;
      const [ax, ay, bx, by] = [a.x + a.w / 2, a.y + a.h / 2, b.x + b.w / 2, b.y + b.h / 2];
      const len = Math.hypot(bx - ax, by - ay) || 1;
      const [nx, ny] = [(-(by - ay) / len) * 4, ((bx - ax) / len) * 4];
      for (const [from, to, sign] of [
        [link.a, link.b, 1],
        [link.b, link.a, -1],
      ] as const) {
        const resource = `${link.name} ${from}->${to}`;
        const el = root
          .append('line')
          .attr('x1', ax + sign * nx)
          .attr('y1', ay + sign * ny)
          .attr('x2', bx + sign * nx)
          .attr('y2', by + sign * ny)
          .attr('stroke-width', 6)
          .attr('stroke-linecap', 'round')
          .attr('class', 'link');
        this.hoverable(
          el.node()!,
          resource,
          `${link.name} ${from} → ${to}: ${bandwidthLabel(link.bandwidth)}, ${formatNs(link.latencyNs)}`,
          'stroke',
        );
      }
      // Between two packages the name fits beside the line; links fanning out of a hub are named
      // in their tooltips only, where the labels would pile up.
      if (!link.a.startsWith('pkg') || !link.b.startsWith('pkg')) continue;
      root
        .append('text')
        .attr('x', (ax + bx) / 2)
        .attr('y', (ay + by) / 2 - 12)
        .attr('text-anchor', 'middle')
        .attr('fill', '#555')
        .attr('pointer-events', 'none')
        .attr('class', 'on-load')
        .text(link.name);
    }
    spec.packages.forEach((p, i) => this.drawPackage(root, spec, p.id, vertex.get(`pkg${p.id}`)!, layouts[i], rankOf));
    spec.hubs.forEach((h) => {
      const b = vertex.get(h.id)!;
      rect(root, b, { rx: 6, fill: '#e8eef7', stroke: '#667' });
      root
        .append('text')
        .attr('x', b.x + 8)
        .attr('y', b.y + 16)
        .text(h.id);
      root
        .append('text')
        .attr('x', b.x + 8)
        .attr('y', b.y + 30)
        .attr('fill', '#555')
        .text(h.description.slice(0, 26));
    });
    // Memory controllers under what they hang off.
    spec.numaNodes.forEach((n) => {
      const at = vertex.get(n.attach);
      // Several NUMA nodes on one vertex: side by side.
      const siblings = spec.numaNodes.filter((m) => m.attach === n.attach);
      const k = siblings.indexOf(n);
      const b =
        at && n.attach.startsWith('pkg')
          ? { x: at.x + 4, y: at.y + at.h + 10, w: Math.min(at.w - 8, 170), h: 34 }
          : { x: (at?.x ?? 20) + k * 180, y: numaY, w: 170, h: 34 };
      if (at && n.attach.startsWith('pkg') && siblings.length > 1) {
        b.w = (at.w - 8 - (siblings.length - 1) * 6) / siblings.length;
        b.x = at.x + 4 + k * (b.w + 6);
      }
      const el = rect(root, b, { rx: 4, stroke: '#444' }).attr('class', 'mem');
      this.hoverable(
        el.node()!,
        `mem${n.id}`,
        `NUMA ${n.id} memory controller: ${bandwidthLabel(n.bandwidth)}${lanes(n.writeBandwidth)}, ${bytesLabel(n.memoryBytes)} ${n.kind}, ${formatNs(n.latencyNs)}${n.peerLatencyNs !== undefined ? `; a line between its cores sharing no cache ${formatNs(n.peerLatencyNs)}` : ''}`,
        'fill',
      );
      root
        .append('text')
        .attr('x', b.x + 6)
        .attr('y', b.y + 14)
        .attr('pointer-events', 'none')
        .attr('class', 'on-load')
        .text(`NUMA ${n.id} · mem${n.id}`);
      root
        .append('text')
        .attr('x', b.x + 6)
        .attr('y', b.y + 27)
        .attr('pointer-events', 'none')
        .attr('class', 'on-load')
        .attr('fill', '#444')
        .text(
          `${bandwidthLabel(n.bandwidth)}${n.writeBandwidth === undefined ? '' : ` + ${bandwidthLabel(n.writeBandwidth)} w`}`,
        );
      if (at && !n.attach.startsWith('pkg'))
        root
          .append('line')
          .attr('x1', b.x + b.w / 2)
          .attr('y1', b.y)
          .attr('x2', at.x + at.w / 2)
          .attr('y2', at.y + at.h)
          .attr('stroke', '#888');
    });
    spec.ioBuses.forEach((bus, i) => {
      const b = { x: 20 + i * 170, y: height - 50, w: 150, h: 36 };
      rect(root, b, { rx: 4, fill: '#f3efe6', stroke: '#876' });
      const nics = spec.nics.filter((n) => n.bus === bus.id).map((n) => n.id);
      root
        .append('text')
        .attr('x', b.x + 6)
        .attr('y', b.y + 14)
        .text(`${bus.id} @ ${bus.attach}`);
      root
        .append('text')
        .attr('x', b.x + 6)
        .attr('y', b.y + 28)
        .attr('fill', '#555')
        .text(nics.length > 0 ? `NIC ${nics.join(', ')}` : bandwidthLabel(bus.bandwidth));
    });
    this.paint();
  }

  private layoutPackage(spec: MachineSpec, pkg: number): { w: number; h: number; cols: number } {
    const cores = spec.cores.filter((c) => c.package === pkg);
    const cols = Math.min(16, Math.max(2, Math.ceil(Math.sqrt(cores.length))));
    const rows = this.collapsed.has(pkg) ? 1 : Math.ceil(cores.length / cols);
    const shared = sharedCaches(spec, cores);
    const w = Math.max(170, cols * (CORE + GAP) + 2 * PAD);
    return { w, h: 28 + rows * (CORE + GAP) + cachesHeight(shared.length, w) + PAD, cols };
  }

  private drawPackage(
    root: G,
    spec: MachineSpec,
    pkg: number,
    box: Box,
    layout: { cols: number },
    rankOf: Map<number, number>,
  ): void {
    const cores = spec.cores.filter((c) => c.package === pkg);
    const g = root.append('g').attr('class', 'package').attr('data-package', pkg);
    rect(g, box, { rx: 8, fill: '#fafbfd', stroke: '#556' });
    const model = spec.packages.find((p) => p.id === pkg)?.model ?? '';
    const header = g
      .append('text')
      .attr('x', box.x + 8)
      .attr('y', box.y + 16)
      .attr('font-weight', 600)
      .style('cursor', 'pointer')
      .text(`${this.collapsed.has(pkg) ? '▸' : '▾'} pkg${pkg} · ${cores.length} cores`);
    header.append('title').text(model);
    header.on('click', () => {
      if (this.collapsed.has(pkg)) this.collapsed.delete(pkg);
      else this.collapsed.add(pkg);
      this.draw();
    });
    let y = box.y + 26;
    if (this.collapsed.has(pkg)) {
      const ranks = cores.filter((c) => rankOf.has(c.id)).map((c) => rankOf.get(c.id)!);
      g.append('text')
        .attr('x', box.x + PAD)
        .attr('y', y + 14)
        .attr('fill', '#444')
        .text(ranks.length > 0 ? `ranks ${describeIds(ranks)}` : 'no ranks');
      y += CORE + GAP;
    } else {
      cores.forEach((c, i) => {
        const cx = box.x + PAD + (i % layout.cols) * (CORE + GAP);
        const cy = y + Math.floor(i / layout.cols) * (CORE + GAP);
        const rank = rankOf.get(c.id);
        const own = spec.caches
          .filter((k) => k.cores.length === 1 && k.cores[0] === c.id)
          .map((k) => `${k.id} ${bytesLabel(k.sizeBytes)}`);
        const el = rect(g, { x: cx, y: cy, w: CORE, h: CORE }, { rx: 3, stroke: rank === undefined ? '#bbb' : '#222' })
          .attr('stroke-width', rank === undefined ? 1 : 1.6)
          .attr('class', 'core');
        this.hoverable(
          el.node()!,
          `core${c.id}`,
          `core ${c.id} (NUMA ${c.numa})${rank !== undefined ? `, rank ${rank}` : ''}: copies at ${bandwidthLabel(spec.costs.copyBandwidth)}${own.length ? `; ${own.join(', ')}` : ''}`,
          'fill',
        );
        if (rank !== undefined)
          g.append('text')
            .attr('x', cx + CORE / 2)
            .attr('y', cy + CORE / 2 + 4)
            .attr('text-anchor', 'middle')
            .attr('font-size', 10)
            .attr('pointer-events', 'none')
            .attr('class', 'on-load')
            .text(rank);
      });
      y += Math.ceil(cores.length / layout.cols) * (CORE + GAP);
    }
    const shared = sharedCaches(spec, cores);
    const tiles = shared.length > BARS_UP_TO;
    if (tiles) {
      // Many shared caches (KNL's tiles): one line saying what they are, then a small square each.
      const sizes = [...new Set(shared.map((k) => `L${k.level} ${bytesLabel(k.sizeBytes)}`))].join(', ');
      g.append('text')
        .attr('x', box.x + PAD)
        .attr('y', y + 13)
        .attr('font-size', 10)
        .text(`${shared.length} shared caches (${sizes})`);
      y += 18;
    }
    const perRow = tileColumns(box.w);
    shared.forEach((k, i) => {
      const place = tiles
        ? {
            x: box.x + PAD + (i % perRow) * (TILE + GAP),
            y: y + Math.floor(i / perRow) * (TILE_H + GAP),
            w: TILE,
            h: TILE_H,
          }
        : { x: box.x + PAD, y: y + 2 + i * 18, w: box.w - 2 * PAD, h: 14 };
      const el = rect(g, place, { rx: 3, stroke: '#777' }).attr('class', 'cache');
      this.hoverable(
        el.node()!,
        `cache ${k.id}`,
        `cache ${k.id} (L${k.level}, cores ${describeIds(k.cores)}): ${bytesLabel(k.sizeBytes)}, ${bandwidthLabel(k.bandwidth)}, load ${formatNs(k.latencyNs)}; a line between two of its cores that share no smaller cache ${formatNs(peerLatency(k))}`,
        'fill',
      );
      if (!tiles)
        g.append('text')
          .attr('x', place.x + 4)
          .attr('y', place.y + 11)
          .attr('font-size', 10)
          .attr('pointer-events', 'none')
          .attr('class', 'on-load')
          .text(`L${k.level} ${k.id} · ${bytesLabel(k.sizeBytes)}`);
    });
  }

  private hoverable(node: SVGElement, resource: string, text: string, attr: 'fill' | 'stroke'): void {
    node.dataset.resource = resource;
    this.painted.push({ el: node, resource, attr });
    node.addEventListener('mousemove', (e) => this.showTip(e, resource, text));
    node.addEventListener('mouseleave', () => (this.tip.hidden = true));
  }

  private showTip(e: MouseEvent, resource: string, text: string): void {
    const t = this.now();
    const s = this.series.get(resource);
    const i = s ? at(s.times, t) : -1;
    const load = s && i >= 0 ? s.loads[i] : 0;
    const lines = [
      text,
      s
        ? `now: ${bandwidthLabel(load)} (${Math.round((100 * load) / s.capacity)}% of ${bandwidthLabel(s.capacity)})`
        : 'carried nothing in this run',
    ];
    const flows = s?.flows && i >= 0 ? s.flows[i] : [];
    for (const label of flows.slice(0, 8)) {
      const ranks = this.events.filter((ev) => ev.label === label && ev.start <= t && ev.end >= t).map((ev) => ev.rank);
      lines.push(`· ${label}${ranks.length > 0 ? ` (rank ${[...new Set(ranks)].join(', ')})` : ''}`);
    }
    if (flows.length > 8) lines.push(`· and ${flows.length - 8} more`);
    this.tip.textContent = '';
    lines.forEach((l, k) => {
      if (k > 0) this.tip.append(document.createElement('br'));
      this.tip.append(l);
    });
    this.tip.hidden = false;
    const r = this.element.getBoundingClientRect();
    this.tip.style.left = `${Math.min(e.clientX - r.left + 12, r.width - 280)}px`;
    this.tip.style.top = `${e.clientY - r.top + 12}px`;
  }

  private paint(): void {
    const t = this.now();
    this.clock.textContent = `${formatNs(t - this.span[0])} of ${formatNs(this.span[1] - this.span[0])}`;
    for (const p of this.painted) {
      const s = this.series.get(p.resource);
      const i = s ? at(s.times, t) : -1;
      const u = s && i >= 0 ? s.loads[i] / s.capacity : 0;
      if (p.attr === 'stroke') p.el.setAttribute('stroke', u > 0 ? utilisationColour(u) : '#c8ccd4');
      else p.el.setAttribute('fill', utilisationColour(u));
      p.el.dataset.utilisation = u.toFixed(3);
    }
  }
}

/** Index of the step of `times` in force at `t` (-1 before the first). */
export function at(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The caches shared by several of `cores` (memory-side ones excepted), by level and natural id order. */
function sharedCaches(spec: MachineSpec, cores: { id: number }[]): MachineSpec['caches'] {
  const ids = new Set(cores.map((c) => c.id));
  return spec.caches
    .filter((k) => k.cores.length > 1 && !k.memorySide && k.cores.some((c) => ids.has(c)))
    .sort((a, b) => a.level - b.level || a.id.localeCompare(b.id, undefined, { numeric: true }));
}

function tileColumns(width: number): number {
  return Math.max(1, Math.floor((width - 2 * PAD + GAP) / (TILE + GAP)));
}

function cachesHeight(count: number, width: number): number {
  if (count <= BARS_UP_TO) return count * 18;
  return 18 + Math.ceil(count / tileColumns(width)) * (TILE_H + GAP) + 4;
}

/** Write lanes of their own (NumaNodeSpec.writeBandwidth), which the box's colour does not show:
 *  their load is `mem<N> writes` in the utilisation view. */
function lanes(writeBandwidth: number | undefined): string {
  return writeBandwidth === undefined
    ? ''
    : ` for reads, ${bandwidthLabel(writeBandwidth)} on write lanes of their own`;
}
