// The one plot of the reproduction report, drawn with d3 on a server-side DOM (linkedom): one value
// per message size on a log-scale size axis (time normalised to the paper's baseline, or the
// library's memory), one line per module, and the paper's published values overlaid where it gives
// numbers.
// d3's and linkedom's types are written against the DOM's, which only this module needs.
/// <reference lib="dom" />
import {
  axisBottom,
  axisLeft,
  extent,
  line,
  max,
  min,
  scaleLinear,
  scaleLog,
  scaleOrdinal,
  schemeTableau10,
  select,
} from 'd3';
import { parseHTML } from 'linkedom';
import { formatSize } from '../scenario-adapter.ts';

export interface PlotSeries {
  label: string;
  /** The value at each of the plot's sizes; undefined where there is none (a normalised time whose
   *  baseline took no time). */
  values: (number | undefined)[];
}

/** A published value: at one size (a point) or over a size span (a dashed segment). */
export interface PublishedMark {
  claim: string;
  label: string;
  from: number;
  to: number;
  value: number;
}

export interface PlotSpec {
  title: string;
  /** What the vertical axis shows, with its unit. */
  yLabel: string;
  /** A value the vertical axis always includes (1 for a time normalised to a baseline). */
  reference?: number;
  sizes: number[];
  series: PlotSeries[];
  published: PublishedMark[];
}

const WIDTH = 640;
const HEIGHT = 360;
const MARGIN = { top: 28, right: 170, bottom: 40, left: 52 };

export function plotBySize(spec: PlotSpec): string {
  const { document } = parseHTML('<!doctype html><html><body></body></html>');
  const svg = select(document.body)
    .append('svg')
    .attr('xmlns', 'http://www.w3.org/2000/svg')
    .attr('width', WIDTH)
    .attr('height', HEIGHT)
    .attr('viewBox', `0 0 ${WIDTH} ${HEIGHT}`)
    .attr('font-family', 'sans-serif')
    .attr('font-size', 11);
  svg.append('rect').attr('width', WIDTH).attr('height', HEIGHT).attr('fill', 'white');

  const values = [
    ...spec.series.flatMap((s) => s.values.filter((v): v is number => v !== undefined)),
    ...spec.published.map((p) => p.value),
    ...(spec.reference === undefined ? [] : [spec.reference]),
  ];
  const [xLo, xHi] = extent(spec.sizes) as [number, number];
  const x = scaleLog()
    .base(2)
    .domain([xLo, Math.max(xHi, xLo * 2)])
    .range([MARGIN.left, WIDTH - MARGIN.right]);
  const y = scaleLinear()
    .domain([Math.min(0, min(values) ?? 0), (max(values) ?? 1) * 1.05])
    .nice()
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const colour = scaleOrdinal<string, string>(schemeTableau10).domain(spec.series.map((s) => s.label));

  svg
    .append('g')
    .attr('transform', `translate(0,${HEIGHT - MARGIN.bottom})`)
    .call(
      axisBottom(x)
        .tickValues(spec.sizes)
        .tickFormat((d) => formatSize(Number(d))),
    );
  svg.append('g').attr('transform', `translate(${MARGIN.left},0)`).call(axisLeft(y).ticks(6));
  svg.append('text').attr('x', MARGIN.left).attr('y', 16).attr('font-weight', 'bold').text(spec.title);
  svg
    .append('text')
    .attr('x', (MARGIN.left + WIDTH - MARGIN.right) / 2)
    .attr('y', HEIGHT - 6)
    .attr('text-anchor', 'middle')
    .text('message size (bytes, log scale)');
  svg
    .append('text')
    .attr('transform', `translate(12,${(HEIGHT - MARGIN.bottom + MARGIN.top) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text(spec.yLabel);

  const path = line<[number, number]>()
    .x((d) => x(d[0]))
    .y((d) => y(d[1]));
  for (const s of spec.series) {
    const points = spec.sizes.flatMap((bytes, i): [number, number][] => {
      const v = s.values[i];
      return v === undefined ? [] : [[bytes, v]];
    });
    svg
      .append('path')
      .attr('d', path(points))
      .attr('fill', 'none')
      .attr('stroke', colour(s.label))
      .attr('stroke-width', 1.8)
      .attr('data-series', s.label);
    for (const [bytes, v] of points)
      svg.append('circle').attr('cx', x(bytes)).attr('cy', y(v)).attr('r', 2.5).attr('fill', colour(s.label));
  }

  // Published values: the paper's numbers in the colour of the module they are about.
  for (const p of spec.published) {
    const c = colour(p.label);
    if (p.from === p.to) {
      svg
        .append('rect')
        .attr('x', x(p.from) - 4)
        .attr('y', y(p.value) - 4)
        .attr('width', 8)
        .attr('height', 8)
        .attr('fill', 'none')
        .attr('stroke', c)
        .attr('stroke-width', 1.5)
        .attr('data-published', p.claim);
    } else {
      svg
        .append('line')
        .attr('x1', x(p.from))
        .attr('x2', x(p.to))
        .attr('y1', y(p.value))
        .attr('y2', y(p.value))
        .attr('stroke', c)
        .attr('stroke-dasharray', '5,3')
        .attr('stroke-width', 1.5)
        .attr('data-published', p.claim);
    }
  }

  const legend = svg.append('g').attr('transform', `translate(${WIDTH - MARGIN.right + 12},${MARGIN.top})`);
  spec.series.forEach((s, i) => {
    legend
      .append('line')
      .attr('x1', 0)
      .attr('x2', 18)
      .attr('y1', i * 16)
      .attr('y2', i * 16)
      .attr('stroke', colour(s.label))
      .attr('stroke-width', 1.8);
    legend
      .append('text')
      .attr('x', 24)
      .attr('y', i * 16 + 4)
      .text(s.label);
  });
  if (spec.published.length > 0) {
    const at = spec.series.length * 16 + 8;
    legend
      .append('rect')
      .attr('x', 5)
      .attr('y', at - 4)
      .attr('width', 8)
      .attr('height', 8)
      .attr('fill', 'none')
      .attr('stroke', '#555');
    legend
      .append('text')
      .attr('x', 24)
      .attr('y', at + 4)
      .text('published (paper)');
  }
  return `${svg.node()!.outerHTML}\n`;
}
