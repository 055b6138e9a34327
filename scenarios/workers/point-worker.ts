// A worker thread of a parallel sweep: simulates each point it is sent and answers with the result
// or the error, tagged with the point's index.
import { parentPort } from 'node:worker_threads';
import type { Point, PointResult } from '../point.ts';
import { simulatePoint } from '../simulate-point.ts';
import { toWire, type WireError } from './wire-error.ts';

export interface PointRequest {
  index: number;
  point: Point;
}

export type PointReply = { index: number; result: PointResult } | { index: number; error: WireError };

const port = parentPort;
if (port === null) throw new Error('point-worker.ts runs only as a worker thread');
port.on('message', ({ index, point }: PointRequest) => {
  let reply: PointReply;
  try {
    reply = { index, result: simulatePoint(point) };
  } catch (e) {
    reply = { index, error: toWire(e) };
  }
  port.postMessage(reply);
});
