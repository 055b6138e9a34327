// First touch of a freshly allocated buffer: before a core's first access to a page the kernel has
// not yet backed, the access faults, and that core pays the handler's fixed work per page and then
// zeroes the new page (a store stream through its copy engine into the page's memory, contended
// like any write). A copy or reduction calls this before moving any byte.
import type { Program } from '../engine/program.ts';
import type { Range } from './buffer.ts';
import type { Node, Uses } from './node.ts';
import { pageFaultNs } from './page-fault-costs.ts';
import { storeKind } from './store-kind.ts';

export function* faultIn(node: Node, core: number, ranges: Range[], rank: number): Program<void> {
  for (const r of ranges) {
    const { pages, firstPage } = node.pages.faultIn(r);
    if (pages === 0) continue;
    const start = node.sim.now;
    yield* node.sim.sleep(pages * pageFaultNs(node.spec));
    const pageBytes = node.pages.pageBytes;
    const offset = firstPage * pageBytes;
    const zeroed: Range = { buf: r.buf, offset, bytes: Math.min(pages * pageBytes, r.buf.size - offset) };
    const uses: Uses = new Map([[node.coreResource(core), 1]]);
    // clear_page is the kernel's own store loop: it stores as the kernel's copy loop does.
    node.planWrite(core, zeroed, uses, 1, { store: storeKind(node.spec, 'kernel', zeroed.bytes, Infinity) });
    yield* node.flow(zeroed.bytes, uses, 0, `zero ${pages} pages of ${r.buf.name}`);
    node.trace.record({
      rank,
      kind: 'page-fault',
      label: `fault in ${pages} pages of ${r.buf.name}`,
      start,
      end: node.sim.now,
      bytes: zeroed.bytes,
    });
  }
}
