// Comparison: time per message size per algorithm, normalised to a chosen baseline, on a log-2 size
// axis, as the seed papers plot it; the what-if machine's series dashed beside the original.
// Clicking a point opens its timeline.
import { axisBottom, axisLeft, format, line, max, min, scaleLog } from 'd3';
import { freshSvg } from './svg.ts';
import type { PointData, RunData } from '../protocol.ts';
import { bytesLabel, formatNs } from '../look.ts';
import { schemeTableau10 } from 'd3';

export interface PickedPoint {
  side: 'original' | 'whatIf';
  index: number;
}

const W = 800;
const H = 380;
const M = { top: 20, right: 180, bottom: 44, left: 58 };

export class ComparisonView {
  readonly element: HTMLElement;
  private readonly controls: HTMLElement;
  private readonly baselineSelect: HTMLSelectElement;
  private readonly tableSelect: HTMLSelectElement;
  private readonly svgHolder: HTMLElement;
  private run: RunData | undefined;
  private picked: PickedPoint | undefined;
  onPick: (p: PickedPoint) => void = () => {};
  /** The table or the baseline was chosen in the menus (the link keeps both). */
  onChoice: () => void = () => {};

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'comparison';
    this.controls = document.createElement('div');
    this.controls.className = 'controls';
    this.baselineSelect = document.createElement('select');
    this.baselineSelect.name = 'baseline';
    this.tableSelect = document.createElement('select');
    this.tableSelect.name = 'table';
    const b = document.createElement('label');
    b.append('normalised to ', this.baselineSelect);
    const t = document.createElement('label');
    t.append(' sweep table ', this.tableSelect);
    this.controls.append(b, t);
    this.svgHolder = document.createElement('div');
    this.element.append(this.controls, this.svgHolder);
    for (const select of [this.baselineSelect, this.tableSelect])
      select.addEventListener('change', () => {
        this.draw();
        this.onChoice();
      });
  }

  /**
   * Plots a run: on `choice.table` and normalised to `choice.baseline` where the run has them (a
   * link's), else on the table of the picked point, or the first, and the scenario's baseline.
   */
  show(run: RunData, picked: PickedPoint | undefined, choice: { table?: number; baseline?: string } = {}): void {
    this.run = run;
    this.picked = picked;
    const baseline = choice.baseline && run.algorithms.includes(choice.baseline) ? choice.baseline : run.baseline;
    this.baselineSelect.replaceChildren(...run.algorithms.map((a) => new Option(a, a, false, a === baseline)));
    const tables = new Map<number, string>();
    for (const p of run.original.points) if (!tables.has(p.table)) tables.set(p.table, p.tableTitle);
    this.tableSelect.replaceChildren(...[...tables].map(([i, title]) => new Option(title, String(i))));
    this.tableSelect.parentElement!.hidden = tables.size < 2;
    const pickedTable = picked && (picked.side === 'whatIf' ? run.whatIf : run.original)?.points[picked.index]?.table;
    const table = choice.table !== undefined && tables.has(choice.table) ? choice.table : pickedTable;
    if (table !== undefined) this.tableSelect.value = String(table);
    this.draw();
  }

  /** Nothing to plot: no run yet, or the last one failed. */
  clear(): void {
    this.run = undefined;
    this.picked = undefined;
    this.svgHolder.replaceChildren();
    this.tableSelect.parentElement!.hidden = true;
  }

  /** The sweep table shown and the baseline chosen, as the link keeps them. */
  get table(): number {
    return Number(this.tableSelect.value || 0);
  }

  get baseline(): string | undefined {
    return this.baselineSelect.value || undefined;
  }

  pick(p: PickedPoint | undefined): void {
    this.picked = p;
    this.draw();
  }

  svg(): SVGSVGElement | null {
    return this.svgHolder.querySelector('svg');
  }

  private draw(): void {
    const run = this.run;
    if (!run) return;
    const table = this.table;
    const chosen = this.baselineSelect.value || run.baseline;
    // A baseline the machine cannot run has no times to divide by (nor one whose every call took no
    // time, as 0-byte calls may): the first algorithm that has one stands in, and the plot says so.
    const divides = (p: PointData) => p.table === table && !p.unavailable && p.meanNs > 0;
    const ran = (a: string) => run.original.points.some((p) => p.algorithm === a && divides(p));
    const baseline = ran(chosen) ? chosen : (run.algorithms.find(ran) ?? chosen);
    const sides = [
      { side: 'original' as const, data: run.original },
      ...(run.whatIf ? [{ side: 'whatIf' as const, data: run.whatIf }] : []),
    ];
    // The baseline of both sides is the original machine's, so the what-if shows as a change.
    const base = new Map<number, number>();
    for (const p of run.original.points) if (p.algorithm === baseline && divides(p)) base.set(p.bytes, p.meanNs);
    interface Plotted extends PointData {
      side: 'original' | 'whatIf';
      norm: number;
    }
    const series: { key: string; algorithm: string; side: 'original' | 'whatIf'; points: Plotted[] }[] = [];
    // A ratio a log axis cannot place (a call, or the baseline's, that took no time, as a 0-byte
    // one may) is named under the plot instead.
    const unplaced = new Set<string>();
    for (const { side, data } of sides) {
      for (const algorithm of run.algorithms) {
        const points = data.points
          .filter((p) => p.table === table && p.algorithm === algorithm && !p.unavailable)
          .map((p) => ({ ...p, side, norm: p.meanNs / (base.get(p.bytes) ?? NaN) }))
          .filter((p) => {
            const placed = p.norm > 0 && Number.isFinite(p.norm);
            if (!placed) unplaced.add(`${algorithm}${side === 'whatIf' ? ' (what-if)' : ''} at ${bytesLabel(p.bytes)}`);
            return placed;
          });
        series.push({ key: `${algorithm}${side === 'whatIf' ? ' (what-if)' : ''}`, algorithm, side, points });
      }
    }
    const all = series.flatMap((s) => s.points);
    const sizes = all.map((p) => p.bytes);
    // A log axis has no 0: a 0-byte point sits half the smallest other size's distance to its left.
    const positive = sizes.filter((b) => b > 0);
    const smallest = min(positive) ?? 1;
    const zeroAt = sizes.includes(0) ? smallest / 2 : undefined;
    const log = scaleLog()
      .base(2)
      .domain([zeroAt ?? smallest, Math.max(max(positive) ?? 2, smallest * 2)])
      .range([M.left, W - M.right]);
    const x = (bytes: number) => log(bytes === 0 ? zeroAt! : bytes);
    const lo = min(all, (p) => p.norm) ?? 0.5;
    const hi = max(all, (p) => p.norm) ?? 2;
    const y = scaleLog()
      .domain([Math.min(lo, 1) / 1.15, Math.max(hi, 1) * 1.15])
      .range([H - M.bottom, M.top]);
    const colour = (algorithm: string) => schemeTableau10[run.algorithms.indexOf(algorithm) % 10];
    const svg = freshSvg(this.svgHolder, 'comparison-plot', W, H);
    svg
      .append('g')
      .attr('transform', `translate(0,${H - M.bottom})`)
      .call(
        axisBottom(log)
          .tickValues(
            sizeTicks(
              uniqueSorted(sizes).map((b) => (b === 0 ? zeroAt! : b)),
              log,
            ),
          )
          .tickFormat((d) => (Number(d) === zeroAt ? '0' : bytesLabel(Number(d)))),
      )
      .selectAll('text')
      .attr('transform', 'rotate(-30)')
      .attr('text-anchor', 'end');
    svg
      .append('g')
      .attr('transform', `translate(${M.left},0)`)
      .call(
        axisLeft(y)
          .tickValues(normalisedTicks(y, y.domain() as [number, number]))
          .tickFormat(format('.2~f')),
      );
    svg
      .append('text')
      .attr('x', M.left)
      .attr('y', 12)
      .text(
        `time per call / ${baseline} (${run.operation}, ${run.name})${baseline !== chosen ? `: ${chosen} is n/a on this machine` : ''}`,
      );
    svg
      .append('line')
      .attr('x1', M.left)
      .attr('x2', W - M.right)
      .attr('y1', y(1))
      .attr('y2', y(1))
      .attr('stroke', '#999')
      .attr('stroke-dasharray', '2,3');
    const path = line<Plotted>()
      .x((p) => x(p.bytes))
      .y((p) => y(p.norm));
    const groups = svg
      .selectAll('g.series')
      .data(series.filter((s) => s.points.length > 0))
      .join('g')
      .attr('class', 'series')
      .attr('data-algorithm', (s) => s.algorithm)
      .attr('data-side', (s) => s.side);
    groups
      .append('path')
      .attr('d', (s) => path(s.points))
      .attr('fill', 'none')
      .attr('stroke', (s) => colour(s.algorithm))
      .attr('stroke-width', 2)
      .attr('stroke-dasharray', (s) => (s.side === 'whatIf' ? '6,4' : null));
    groups
      .selectAll('circle')
      .data((s) => s.points)
      .join('circle')
      .attr('cx', (p) => x(p.bytes))
      .attr('cy', (p) => y(p.norm))
      .attr('r', (p) => (this.picked?.side === p.side && this.picked.index === p.index ? 6 : 3.5))
      .attr('fill', (p) => (p.side === 'whatIf' ? 'white' : colour(p.algorithm)))
      .attr('stroke', (p) => colour(p.algorithm))
      .attr('stroke-width', (p) => (this.picked?.side === p.side && this.picked.index === p.index ? 3 : 1.5))
      .attr('data-mean-ns', (p) => p.meanNs)
      .style('cursor', 'pointer')
      .on('click', (_, p) => this.onPick({ side: p.side, index: p.index }))
      .append('title')
      .text(
        (p) =>
          `${p.algorithm}${p.side === 'whatIf' ? ' (what-if)' : ''}, ${bytesLabel(p.bytes)}: ${formatNs(p.meanNs)} (${p.norm.toFixed(2)} × ${baseline})`,
      );
    const legend = svg
      .append('g')
      .attr('transform', `translate(${W - M.right + 12},${M.top + 6})`)
      .selectAll('g')
      .data(series.filter((s) => s.points.length > 0))
      .join('g')
      .attr('transform', (_, i) => `translate(0,${i * 17})`);
    legend
      .append('line')
      .attr('x2', 20)
      .attr('stroke', (s) => colour(s.algorithm))
      .attr('stroke-width', 2)
      .attr('stroke-dasharray', (s) => (s.side === 'whatIf' ? '6,4' : null));
    legend
      .append('text')
      .attr('x', 25)
      .attr('dy', '0.35em')
      .text((s) => s.key);
    const missing = run.algorithms.filter((a) => !series.some((s) => s.algorithm === a && s.points.length > 0));
    const notes = [
      ...(missing.length > 0 ? [`n/a on this machine: ${missing.join(', ')}`] : []),
      ...(unplaced.size > 0
        ? [`no ratio to plot (a time of 0 here or in the baseline): ${[...unplaced].join(', ')}`]
        : []),
    ];
    svg
      .selectAll('text.note')
      .data(notes)
      .join('text')
      .attr('class', 'note')
      .attr('x', M.left)
      .attr('y', (_, i) => H - 4 - 13 * (notes.length - 1 - i))
      .attr('fill', '#a33')
      .text((t) => t);
  }
}

function uniqueSorted(values: number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

/** The sizes labelled on the axis: from the smallest up, each at least `gap` pixels past the last
 *  labelled, so that a sweep of many sizes keeps legible labels (every point is still plotted). */
function sizeTicks(sizes: number[], x: (v: number) => number, gap = 30): number[] {
  const kept: number[] = [];
  for (const s of sizes) if (kept.length === 0 || x(s) - x(kept[kept.length - 1]) >= gap) kept.push(s);
  return kept;
}

/** Ticks of a normalised axis: round ratios inside the domain, 1 always, the others only where
 *  they keep `gap` pixels from every tick already placed (working outwards from 1). */
function normalisedTicks(y: (v: number) => number, [lo, hi]: [number, number], gap = 16): number[] {
  const candidates = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.5, 2, 3, 5, 10, 20, 50, 100,
  ].filter((t) => t >= lo && t <= hi);
  const kept = [1];
  const one = candidates.indexOf(1);
  const outwards = [...candidates.slice(one + 1), ...candidates.slice(0, Math.max(0, one)).reverse()];
  for (const t of outwards) if (kept.every((k) => Math.abs(y(k) - y(t)) >= gap)) kept.push(t);
  return kept.sort((a, b) => a - b);
}
