// What every SVG plot of the page starts from: one <svg> in `holder`, emptied, sized, on white
// (so an exported file has a background), and the boxes the machine diagram is made of.
import { select, type Selection } from 'd3';

export type Svg = Selection<SVGSVGElement, null, HTMLElement, unknown>;

export function freshSvg(holder: HTMLElement, className: string, width: number, height: number): Svg {
  const svg = select(holder)
    .selectAll<SVGSVGElement, null>('svg')
    .data([null])
    .join('svg')
    .attr('xmlns', 'http://www.w3.org/2000/svg')
    .attr('class', className)
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('width', width)
    .attr('height', height)
    .attr('font-family', 'system-ui, sans-serif')
    .attr('font-size', 11);
  svg.selectAll('*').remove();
  svg.append('rect').attr('width', width).attr('height', height).attr('fill', 'white');
  return svg;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A rounded rectangle at `b`. */
export function rect<P extends SVGElement>(
  parent: Selection<P, unknown, null, undefined>,
  b: Box,
  style: { rx: number; fill?: string; stroke: string },
): Selection<SVGRectElement, unknown, null, undefined> {
  const r = parent
    .append('rect')
    .attr('x', b.x)
    .attr('y', b.y)
    .attr('width', b.w)
    .attr('height', b.h)
    .attr('rx', style.rx)
    .attr('stroke', style.stroke);
  if (style.fill) r.attr('fill', style.fill);
  return r;
}
