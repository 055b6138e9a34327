// A worker thread of a parallel sweep: given the sweep's points and the counter every thread takes
// the next one from, simulates points until none is left, answering each with the result or the
// error, tagged with the point's index.
import { parentPort } from 'node:worker_threads';
import type { Point, PointResult } from '../point.ts';
import { simulatePoint } from '../simulate-point.ts';
import { toWire, type WireError } from './wire-error.ts';

export interface PointsOffer {
  /** Which sweep of the pool the points are, echoed in every reply. */
  sweep: number;
  points: Point[];
  /** One Int32: the index of the next point no thread has taken. */
  next: SharedArrayBuffer;
}

export type PointReply =
  { sweep: number; index: number; result: PointResult } | { sweep: number; index: number; error: WireError };

const port = parentPort;
if (port === null) throw new Error('point-worker.ts runs only as a worker thread');
port.on('message', ({ sweep, points, next }: PointsOffer) => {
  const counter = new Int32Array(next);
  for (let index = Atomics.add(counter, 0, 1); index < points.length; index = Atomics.add(counter, 0, 1)) {
    let reply: PointReply;
    try {
      reply = { sweep, index, result: simulatePoint(points[index]) };
    } catch (e) {
      reply = { sweep, index, error: toWire(e) };
    }
    port.postMessage(reply);
  }
});
