// The kernel's first access to a page through the calling process's own mapping: copy_to_user and
// copy_from_user, the local side of process_vm_readv and process_vm_writev (mm/process_vm_access.c)
// and a synchronous KNEM read (KNEM_WORK_MEMCPY_TO_USER). Pages reached the other way, pinned with
// get_user_pages and copied through the kernel's own mapping (CMA's remote side, KNEM's regions),
// are not concerned.
//
// On bare metal this costs nothing beyond the copy (`firstUserAccessNs` 0, the default). A guest
// whose hypervisor shadows its page tables, with the kernel on page tables of its own (page-table
// isolation), exits to the hypervisor the first time the kernel reaches each user page, to fill that
// table's shadow entry; the user's own earlier writes filled only the user table's. Found on the
// development host (docs/model.md, "The kernel's first access to a user page"): the first
// process_vm_readv into a page, the first pread into it and the first pwrite from it each took
// several microseconds a page more than the next one, whether or not the user had just written the
// page, and again after the page was unmapped and mapped anew; the remote side's pages cost nothing
// of the kind. `intranode validate` measures it (its first-access probe) and `intranode calibrate`
// fits it from a cold CMA sweep whose every call reaches new pages.
//
// A benchmark with cold caches (IMB -off_cache) rotates through copies of its buffers, so a call
// reaches new pages only until the rotation comes round: the harness says which copy each call
// uses (`useBufferCopy`), and pages are counted per copy.
import { STATE_TOKENS, type EmitsStateTokens, type StateToken } from '../../common/state-fingerprint.ts';
import type { Program } from '../engine/program.ts';
import type { Range } from '../node/buffer.ts';
import { lazily, RunState } from '../node/run-state.ts';
import type { World } from '../node/world.ts';
import { firstUserAccessNs } from './kernel-costs.ts';
import { step } from './kernel-steps.ts';

/** Which copy of the buffers the calls use now, and per copy and buffer the pages the kernel has
 *  reached through their owner's mapping. */
class ReachedPages implements EmitsStateTokens {
  copy = 0;
  readonly pages = new Map<number, Map<number, Set<number>>>();

  [STATE_TOKENS](push: (token: StateToken) => void): void {
    // Until a page is reached every copy is new, and which one comes next changes nothing ahead: a
    // cold run that never reaches one (no CMA) can still find a call starting as an earlier one did.
    if (this.pages.size === 0) return;
    push(this.copy);
    for (const [copy, byBuffer] of this.pages) {
      push('copy');
      push(copy);
      for (const [buf, pages] of byBuffer) {
        push('buffer');
        push(buf);
        for (const page of pages) push(page);
      }
    }
  }
}

// Created only on a machine that charges the access: elsewhere the run keeps no such state, so a
// call's state fingerprint (steady-state.ts) is what it was without this model.
const REACHED = new RunState('pages the kernel reached through their owners’ mappings', () => new ReachedPages());

/**
 * The calls from now on use copy `copy` of every rank's buffers (a cold-cache rotation's). Where no
 * call comes back to an earlier copy (`reused` false), what was reached in the others is forgotten.
 */
export function useBufferCopy(world: World, copy: number, reused = true): void {
  if (firstUserAccessNs(world.node.spec) === 0) return;
  const reached = world.stateOf(REACHED);
  reached.copy = copy;
  if (!reused) for (const other of [...reached.pages.keys()]) if (other !== copy) reached.pages.delete(other);
}

/**
 * The kernel of `rank` reaches `ranges` (its own buffers) through its mapping: the pages it reaches
 * for the first time in the buffers' current copy cost `firstUserAccessNs` each, on its thread,
 * recorded as a 'page-map' step.
 */
export function* reachThroughMapping(
  world: World,
  rank: number,
  ranges: readonly Range[],
  label: string,
): Program<void> {
  const ns = firstUserAccessNs(world.node.spec);
  if (ns === 0) return;
  const reached = world.stateOf(REACHED);
  const byBuffer = lazily(reached.pages, reached.copy, () => new Map<number, Set<number>>());
  const pageBytes = world.node.spec.kernel.pageBytes;
  let fresh = 0;
  for (const r of ranges) {
    if (r.bytes === 0) continue;
    const pages = lazily(byBuffer, r.buf.id, () => new Set<number>());
    // Buffers start on a page, as the native backend's and an MPI library's large buffers do.
    const last = Math.floor((r.offset + r.bytes - 1) / pageBytes);
    for (let p = Math.floor(r.offset / pageBytes); p <= last; p++) {
      if (pages.has(p)) continue;
      pages.add(p);
      fresh++;
    }
  }
  if (fresh > 0) yield* step(world, rank, 'page-map', `${label}: first access to ${fresh} pages`, fresh * ns);
}

/** How many pages of `buf` in copy `copy` the kernel has reached through its owner's mapping;
 *  undefined where the machine keeps no such count (it charges nothing for them). */
export function pagesReached(world: World, copy: number, buf: number): number | undefined {
  if (!world.hasState(REACHED)) return undefined;
  return world.stateOf(REACHED).pages.get(copy)?.get(buf)?.size ?? 0;
}
