// A rank can have several steps under way at once (an asynchronous KNEM copy while it polls, a DMA
// engine's copy while it waits). Drawn as one row they would overlap; this spreads them over lanes,
// each lane a sequence of steps that never overlap, the first lane taking all it can.

export interface Span {
  rank: number;
  start: number;
  end: number;
}

/** Lane of each span (by index in `spans`), and how many lanes each rank needs. */
export interface LaneAssignment {
  lane: Int32Array;
  lanesOf: Map<number, number>;
}

export function assignLanes(spans: readonly Span[]): LaneAssignment {
  const order = spans.map((_, i) => i);
  // Earlier first; at one start the longer first, so a step encloses the zero-length marks in it.
  order.sort((a, b) => spans[a].start - spans[b].start || spans[b].end - spans[a].end || a - b);
  const lane = new Int32Array(spans.length);
  const laneEnds = new Map<number, number[]>();
  for (const i of order) {
    const s = spans[i];
    let ends = laneEnds.get(s.rank);
    if (!ends) laneEnds.set(s.rank, (ends = []));
    let l = ends.findIndex((end) => end <= s.start);
    if (l < 0) l = ends.push(s.end) - 1;
    else ends[l] = s.end;
    lane[i] = l;
  }
  const lanesOf = new Map<number, number>();
  for (const [rank, ends] of laneEnds) lanesOf.set(rank, ends.length);
  return { lane, lanesOf };
}
