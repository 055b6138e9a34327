import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventQueue, type QueueEntry } from '../../sim/engine/event-queue.ts';

class Tagged implements QueueEntry {
  constructor(readonly id: number) {}
  fireEvent(): void {}
}

describe('EventQueue', () => {
  it('is empty at first', () => {
    const q = new EventQueue();
    expect(q.size).toBe(0);
    expect(q.peekTime()).toBe(Infinity);
  });

  it('pops by time, then by insertion order, across growth and interleaved pushes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.boolean()), { maxLength: 3000 }), (ops) => {
        const q = new EventQueue();
        const reference: { time: number; id: number }[] = [];
        const popped: { time: number; id: number }[] = [];
        const expected: { time: number; id: number }[] = [];
        let id = 0;
        for (const [time, popFirst] of ops) {
          if (popFirst && reference.length > 0) {
            reference.sort((a, b) => a.time - b.time || a.id - b.id);
            expected.push(reference.shift()!);
            const t = q.peekTime();
            popped.push({ time: t, id: (q.pop() as Tagged).id });
          }
          q.push(time, new Tagged(id));
          reference.push({ time, id });
          id++;
        }
        reference.sort((a, b) => a.time - b.time || a.id - b.id);
        expected.push(...reference);
        while (q.size > 0) {
          const t = q.peekTime();
          popped.push({ time: t, id: (q.pop() as Tagged).id });
        }
        expect(popped).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
