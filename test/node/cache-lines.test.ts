// Caches take whole lines (cache-lines.ts): an access widened to the lines it touches, within its
// buffer; a later access to the rest of a line finds it cached, read or written.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { Buffer, range, type Range } from '../../sim/node/buffer.ts';
import { lineExtent } from '../../sim/node/cache-lines.ts';
import { loadPreset } from '../../hardware/presets.ts';

describe('lineExtent', () => {
  it('covers exactly the lines an access touches, never past its buffer', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.constantFrom(32, 64, 128),
        (size, a, b, line) => {
          const offset = Math.min(a, size);
          const bytes = Math.min(b, size - offset);
          const r = range(new Buffer(0, 'b', size, 0), offset, bytes);
          const { lines, before, after } = lineExtent(r, line);
          expect(lines.offset).toBe(offset - before);
          expect(lines.bytes).toBe(bytes + before + after);
          expect(lines.offset % line).toBe(0);
          expect(before).toBeLessThan(line);
          expect(after).toBeLessThan(line);
          const end = lines.offset + lines.bytes;
          // It ends on a line boundary or at the buffer's end, whichever comes first.
          expect(end === size || end % line === 0).toBe(true);
          expect(end <= size).toBe(true);
          if (before === 0 && after === 0) expect(lines).toBe(r);
        },
      ),
    );
  });
});

describe('a copy that ends inside a line', () => {
  /** Westmere's core 0 copying `bytes` from byte 100 of a cold buffer into another, after `first`
   *  (offset and length) was copied, if given. */
  function copyTime(bytes: number, first?: [offset: number, bytes: number]) {
    const spec = loadPreset('westmere');
    const sim = new Simulation({ seed: 'lines' });
    const node = new Node(sim, spec);
    const src = node.allocate('src', 8192, 0);
    const dst = node.allocate('dst', 8192, 0);
    const run = (s: Range, d: Range) => {
      const start = sim.now;
      sim.spawn('copy', node.copy(0, s, d, { rank: 0, label: 'copy' }));
      sim.run();
      return sim.now - start;
    };
    if (first) run(range(src, first[0], first[1]), range(dst, first[0], first[1]));
    return { node, src, dst, time: run(range(src, 100, bytes), range(dst, 100, bytes)) };
  }

  it('leaves the rest of its last line cached, read and written, for the next copy', () => {
    // The first copy ends at byte 100, inside the line [64, 128): the second, of bytes 100..127,
    // finds that line cached on both sides, where it would miss to memory after a copy ending at 64.
    const after = copyTime(28, [0, 100]);
    const alone = copyTime(28, [0, 64]);
    expect(after.time).toBeLessThan(alone.time);
    // Both lines whole in the core's L1, and the written one dirty where the model keeps written
    // lines dirty, in the outermost cache (node.ts, touch).
    const caches = loadPreset('westmere').caches.filter((c) => c.cores.includes(0));
    const l1 = after.node.cache(caches.find((c) => c.level === 1)!.id);
    const l3 = after.node.cache(caches.find((c) => c.level === 3)!.id);
    expect(l1.residentBytes(after.src.id, 64, 64)).toBe(64);
    expect(l1.residentBytes(after.dst.id, 64, 64)).toBe(64);
    expect(l3.dirtyBytes(after.dst.id, 64, 64)).toBe(64);
    expect(alone.node.cache(caches.find((c) => c.level === 1)!.id).residentBytes(alone.src.id, 0, 64)).toBe(64);
  });
});
