// Readers streaming the same bytes through one shared cache at the same time.
//
// Residency is recorded when a copy starts, for its whole range, so a reader that starts while
// another is still streaming the same source would find that source already evicted by the first
// copy's own destination whenever source plus destination exceed the cache. Real readers of one
// buffer (a broadcast root's, a gathered block) walk it nearly in step: the second reads each line
// shortly after the first brought it in, and it hits as long as the lines brought in between (its
// reuse distance) fit in the cache. A reader that starts while a leader on the same shared cache
// has streamed less of the range than that distance follows it and hits the lines it brings in.
import type { Flow } from '../flow/network.ts';
import type { Range } from './buffer.ts';

interface Stream {
  buf: number;
  offset: number;
  bytes: number;
  flow: Flow;
}

export class SharedStreams {
  private readonly byCache = new Map<string, Stream[]>();

  /** `r` is being read through these caches by the copy moving `flow`. */
  add(cacheIds: readonly string[], r: Range, flow: Flow): void {
    if (r.bytes === 0) return;
    for (const id of cacheIds) {
      let list = this.byCache.get(id);
      if (list === undefined) this.byCache.set(id, (list = []));
      list.push({ buf: r.buf.id, offset: r.offset, bytes: r.bytes, flow });
    }
  }

  /**
   * Bytes of `r` a reader starting now on cache `id` (of `capacity` bytes) gets from a leader still
   * streaming them there. Each stream on the cache brings in source and destination lines, so a
   * follower's lag must stay under capacity / (2 x streams) for its lines to be still there.
   */
  followed(id: string, capacity: number, r: Range): number {
    const list = this.byCache.get(id);
    if (list === undefined) return 0;
    let live = 0;
    for (let i = 0; i < list.length; i++) {
      if (list[i].flow.finishedAt !== undefined) continue;
      list[live++] = list[i];
    }
    list.length = live;
    if (live === 0) {
      this.byCache.delete(id);
      return 0;
    }
    const window = capacity / (2 * (live + 1));
    let best = 0;
    for (const s of list) {
      if (s.buf !== r.buf.id) continue;
      const overlap = Math.min(s.offset + s.bytes, r.offset + r.bytes) - Math.max(s.offset, r.offset);
      if (overlap <= 0) continue;
      const lag = s.bytes - s.flow.remaining();
      if (lag <= window) best = Math.max(best, overlap);
    }
    return best;
  }
}
