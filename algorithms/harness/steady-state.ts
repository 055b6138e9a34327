// Steady state across calls: the simulator is deterministic, so a call that starts in the same state
// as an earlier call replays it, and so does every call after it, with the calls in between as the
// period. The state is compared, not assumed: its fingerprint (common/state-fingerprint.ts) at the
// start of each call against those of the calls before. Once one repeats, the harness stops
// simulating and takes the remaining calls' times and step totals from the period they repeat.
//
// Fingerprints cost a walk of the whole state, so a call is fingerprinted only when the calls still
// to run, at the previous call's events each, could outweigh that walk (a count of events against a
// count of tokens, both deterministic, so whether a run replays never depends on the host's speed).
// Only the fingerprints of the last KEEP_PERIODS periods' calls are kept, bounding memory; a longer
// cycle is simulated in full.
import { sameState, stateFingerprint, TokenIds, type Fingerprint } from '../../common/state-fingerprint.ts';

/**
 * Tokens a walk covers in the time the simulator takes for one event (a token costs tens of ns, an
 * event with its flow re-solve a few µs): a fingerprint is taken when the calls left, at the previous
 * call's events each, hold at least one event per this many tokens of the last fingerprint.
 */
const TOKENS_PER_EVENT = 50;
/** How many periods (calls per iteration) of fingerprints are kept. */
const KEEP_PERIODS = 8;

export interface Replay {
  /** The first call not simulated. */
  from: number;
  /** The earlier call whose state call `from` starts in; calls from..end repeat source..from-1 in turn. */
  source: number;
}

export class SteadyState {
  private readonly kept: { call: number; tokens: Fingerprint }[] = [];
  private lastTokens = 0;
  /** One set of token ids for every fingerprint of the run, so they compare. */
  private readonly ids = new TokenIds();

  /**
   * @param period calls per iteration (one per root): only calls of the same root can repeat each other.
   * @param firstMeasured the first measured call; a repeat must start at or after it, so the period
   *        replayed was itself measured.
   */
  constructor(
    private readonly period: number,
    private readonly firstMeasured: number,
  ) {}

  /**
   * Called at the start of call `call` (its inputs filled, nothing run yet), with the events the
   * previous call ran and the calls left (this one included). Returns the replay if this call's
   * state repeats a kept earlier one.
   */
  check(call: number, roots: unknown, now: number, eventsOfPrevious: number, callsLeft: number): Replay | undefined {
    // Kept by distance, not by count: calls not fingerprinted (too few left to be worth a walk)
    // must not hold older sources, and with them their saved buffers and loads, to the run's end.
    while (this.kept.length > 0 && this.kept[0].call < call - KEEP_PERIODS * this.period) this.kept.shift();
    if (this.lastTokens > 0 && eventsOfPrevious * callsLeft * TOKENS_PER_EVENT < this.lastTokens) return undefined;
    // Sized as the last walk: the state grows little from call to call.
    const tokens = stateFingerprint(roots, now, undefined, { ids: this.ids, capacity: this.lastTokens + 1024 });
    this.lastTokens = tokens.length;
    for (const k of this.kept) {
      if ((call - k.call) % this.period === 0 && k.call >= this.firstMeasured && sameState(k.tokens, tokens))
        return { from: call, source: k.call };
    }
    this.kept.push({ call, tokens: tokens.compact() });
    return undefined;
  }

  /** The earliest call a later one can still replay (older fingerprints are dropped). */
  earliestSource(): number {
    return this.kept[0]?.call ?? Infinity;
  }
}

/** Adds `b`'s totals to `a`'s, kind by kind (for the calls a replay takes instead of simulating). */
export function addTotals(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = { ...a };
  for (const [kind, ns] of Object.entries(b)) out[kind] = (out[kind] ?? 0) + ns;
  return Object.fromEntries(Object.entries(out).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

/** What each kind of step took between two snapshots of the totals. */
export function totalsBetween(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [kind, ns] of Object.entries(after)) out[kind] = ns - (before[kind] ?? 0);
  return out;
}
