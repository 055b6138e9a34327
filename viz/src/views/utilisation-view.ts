// Utilisation: every memory controller's and link direction's load over the run, as a share of
// its capacity. Loads change at every re-solve, thousands of times in a pipelined run, so each line
// is the load averaged over equal slices of the run (the exact integral of the step function).
import { axisBottom, axisLeft, curveStepAfter, line, scaleLinear, schemeTableau10 } from 'd3';
import { freshSvg } from './svg.ts';
import type { LoadSeries } from '../../../sim/flow/load-recorder.ts';
import { formatNs } from '../look.ts';

const W = 760;
/** Slices of the run each line is averaged over. */
const BINS = 200;
const H = 320;
const M = { top: 22, right: 190, bottom: 34, left: 46 };

/** Memory controllers (mem<N>, and `mem<N> writes` for write lanes of their own) and directed links
 *  (`name a->b`), the resources this view plots. */
export function isPlotted(resource: string): boolean {
  return /^mem\d+( writes)?$/.test(resource) || resource.includes('->');
}

export class UtilisationView {
  readonly element: HTMLElement;

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'utilisation';
  }

  /** No point to plot: nothing of an earlier run stays. */
  clear(): void {
    this.element.replaceChildren();
  }

  show(loads: readonly LoadSeries[], title: string): void {
    const series = loads.filter((s) => isPlotted(s.resource));
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of loads) {
      lo = Math.min(lo, s.times[0]);
      hi = Math.max(hi, s.times[s.times.length - 1]);
    }
    if (!Number.isFinite(lo) || hi <= lo) [lo, hi] = [0, 1];
    const x = scaleLinear()
      .domain([0, hi - lo])
      .range([M.left, W - M.right]);
    const y = scaleLinear()
      .domain([0, 1])
      .range([H - M.bottom, M.top]);
    const svg = freshSvg(this.element, 'utilisation-plot', W, H);
    svg
      .append('g')
      .attr('transform', `translate(0,${H - M.bottom})`)
      .call(
        axisBottom(x)
          .ticks(6)
          .tickFormat((d) => formatNs(Number(d))),
      );
    svg.append('g').attr('transform', `translate(${M.left},0)`).call(axisLeft(y).ticks(5, '.0%'));
    svg.append('text').attr('x', M.left).attr('y', 13).text(`utilisation of memory controllers and links: ${title}`);
    if (series.length === 0) {
      svg
        .append('text')
        .attr('x', M.left + 10)
        .attr('y', H / 2)
        .attr('fill', '#666')
        .text('no memory controller or link carried bytes in this run');
      return;
    }
    const path = line<[number, number]>()
      .x((d) => x(d[0]))
      .y((d) => y(d[1]))
      .curve(curveStepAfter);
    const colour = (i: number) => schemeTableau10[i % 10];
    const bins = BINS;
    svg
      .append('text')
      .attr('x', W - M.right)
      .attr('y', H - 2)
      .attr('text-anchor', 'end')
      .attr('fill', '#555')
      .text(`each step: the mean over ${formatNs((hi - lo) / bins)}`);
    series.forEach((s, i) => {
      const means = binnedMeans(s, lo, hi, bins);
      const pts: [number, number][] = means.map((m, b) => [((hi - lo) * b) / bins, m / s.capacity]);
      pts.push([hi - lo, pts[pts.length - 1][1]]);
      svg
        .append('path')
        .attr('class', 'series')
        .attr('data-resource', s.resource)
        .attr('d', path(pts))
        .attr('fill', 'none')
        .attr('stroke', colour(i))
        .attr('stroke-width', 1.5)
        .attr('stroke-dasharray', s.resource.startsWith('mem') ? null : '5,2');
    });
    const legend = svg
      .append('g')
      .attr('transform', `translate(${W - M.right + 10},${M.top})`)
      .selectAll('g')
      .data(series.slice(0, 16))
      .join('g')
      .attr('transform', (_, i) => `translate(0,${i * 16})`);
    legend
      .append('line')
      .attr('x2', 18)
      .attr('stroke', (_, i) => colour(i))
      .attr('stroke-width', 2)
      .attr('stroke-dasharray', (s) => (s.resource.startsWith('mem') ? null : '5,2'));
    legend
      .append('text')
      .attr('x', 22)
      .attr('dy', '0.35em')
      .text((s) => s.resource);
    if (series.length > 16)
      svg
        .append('text')
        .attr('x', W - M.right + 10)
        .attr('y', M.top + 16 * 16 + 4)
        .text(`and ${series.length - 16} more`);
  }

  svg(): SVGSVGElement | null {
    return this.element.querySelector('svg');
  }
}

/** The mean load of `s` over each of `bins` equal slices of [lo, hi]. */
export function binnedMeans(s: LoadSeries, lo: number, hi: number, bins: number): number[] {
  const width = (hi - lo) / bins;
  const sums = new Array<number>(bins).fill(0);
  for (let j = 0; j < s.times.length; j++) {
    let from = Math.max(lo, s.times[j]);
    const to = Math.min(hi, j + 1 < s.times.length ? s.times[j + 1] : hi);
    while (from < to) {
      const b = Math.min(bins - 1, Math.floor((from - lo) / width));
      const end = Math.min(to, lo + (b + 1) * width);
      sums[b] += s.loads[j] * (end - from);
      // A slice's end rounded onto `from` would never move on.
      from = end > from ? end : to;
    }
  }
  return sums.map((sum) => sum / width);
}
