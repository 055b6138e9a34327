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
    // fast-check keeps arrays near 10 entries unless told a length: at least 1,500 operations, one
    // in four popping first, fill the queue past its initial 1,024 slots, so it grows mid-run.
    const op = fc.tuple(
      fc.integer({ min: 0, max: 20 }),
      // Uniform, unlike an integer arbitrary, which fast-check biases toward small values (0 here).
      fc.constantFrom(false, false, false, true),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1500, maxLength: 3000 }), (ops) => {
        const q = new EventQueue();
        let largest = 0;
        const reference: { time: number; id: number }[] = [];
        const popped: { time: number; id: number }[] = [];
        const expected: { time: number; id: number }[] = [];
        let id = 0;
        for (const [time, popFirst] of ops) {
          if (popFirst && reference.length > 0) {
            // The reference: the earliest time, the first pushed among equals (a stable sort).
            let at = 0;
            for (let i = 1; i < reference.length; i++) if (reference[i].time < reference[at].time) at = i;
            expected.push(reference.splice(at, 1)[0]);
            const t = q.peekTime();
            popped.push({ time: t, id: (q.pop() as Tagged).id });
          }
          q.push(time, new Tagged(id));
          reference.push({ time, id });
          id++;
          largest = Math.max(largest, q.size);
        }
        expect(largest).toBeGreaterThan(1024);
        reference.sort((a, b) => a.time - b.time || a.id - b.id);
        expected.push(...reference);
        while (q.size > 0) {
          const t = q.peekTime();
          popped.push({ time: t, id: (q.pop() as Tagged).id });
        }
        expect(popped).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
