// The model's constants calibration fits, in the order it fits them, each from its training
// measurement. A later fit sees the values of the earlier ones. To fit a new constant, add one
// entry to FITTED_CONSTANTS: what it sets, from which training data, and how.
//
// The procedure, "model in the loop": wherever the model's prediction depends on a constant through
// other bounds too (a copy is limited by the core, the cache it reads, the misses in flight...), the
// constant is the value at which the model reproduces its measurement, found by bisection; where the
// model is linear in constants (CMA's syscall and per-page pinning), by weighted least squares of
// relative errors against the model run with those constants at zero. Latencies are measured
// directly. Each fitted value says which measurement it came from.
import type { MachineSpec } from '../../hardware/spec.ts';
import type { NativeStats } from '../backend.ts';
import { modelAlgorithm, nativeRotation, predictNs } from '../predict.ts';
import { setCapacity, type TrainingData } from '../training.ts';
import { modelClaimsNs } from './model-claims.ts';
import { modelCopyNs } from './model-copy.ts';
import { nonNegativeFit1, nonNegativeFit2, solveDecreasing } from './solve.ts';

export interface FittedValue {
  /** Field path in the MachineSpec, e.g. `caches[2].bandwidth`, `kernel.syscallNs`. */
  field: string;
  value: number | string;
  /** The measurement it came from and how, written beside the value in the machine file. */
  source: string;
  /** The measurement could not move the model there: the value is the one it had before. */
  kept?: boolean;
}

export interface FittedConstant {
  name: string;
  /** Sets the constant on `spec` (the calibration's working copy) and says what it set. `initial`
   *  is the spec as it was before any fit (its detected and default values; `spec` itself when
   *  absent): a fit that cannot reach its measurement compares with that, not with the value an
   *  earlier pass of the fits left (calibrate.ts). */
  fit(spec: MachineSpec, data: TrainingData, initial?: MachineSpec): FittedValue[];
}

export const fmt = (ns: number) => (ns >= 1000 ? `${(ns / 1000).toFixed(2)} us` : `${ns.toFixed(1)} ns`);
const gbs = (bytes: number, ns: number) => `${(bytes / ns).toFixed(2)} GB/s`;
const sizeText = (b: number) => (b >= 1 << 20 ? `${b / (1 << 20)} MiB` : `${b / 1024} KiB`);
const spread = (s: NativeStats) => `median of ${s.samples}, IQR ${fmt(s.q1Ns)}..${fmt(s.q3Ns)}`;

/**
 * Fits a bandwidth so the model's copy time at this measurement equals the measured median. Where
 * no value gets the model there (another bound holds it back at this working set), the measurement
 * still says this resource does not hold the copy back: every value from the least at which the
 * model's time is its floor (within FLOOR_REL) agrees with it, and no value below. The constant keeps
 * its value from before calibration (`initial`) where that agrees, and becomes that least value where
 * it does not (a default slower than the copy measured, which once was kept and held the model's copy
 * at the default).
 */
function fitBandwidth(
  spec: MachineSpec,
  initial: number,
  set: (bw: number) => void,
  cores: number[],
  bytes: number,
  measured: NativeStats,
): { value: number; note: string; kept?: boolean } {
  const time = (bw: number) => {
    set(bw);
    return modelCopyNs(spec, cores, bytes);
  };
  const { x, reached } = solveDecreasing(time, measured.medianNs, 0.05, 5000);
  if (reached) {
    set(round(x));
    return { value: round(x), note: 'model-in-the-loop fit to it' };
  }
  // x is the top of the range: the model's time there is its floor.
  const floor = time(x);
  const least = round(solveDecreasing(time, floor * (1 + FLOOR_REL), 0.05, x).x);
  const why = `the model takes at least ${fmt(floor)} there (another resource bounds it), slower than measured`;
  if (initial >= least) {
    set(initial);
    return {
      value: initial,
      note: `not fitted: ${why}, and its value before calibration, ${initial}, does not hold it back; kept ${initial}`,
      kept: true,
    };
  }
  set(least);
  return { value: least, note: `${why}: the least value that does not hold it back further` };
}

/** How near the model's floor a value must bring its time to count as not binding: far below any
 *  printed digit, above the bisection's own resolution. A numerical tolerance, not a model constant. */
const FLOOR_REL = 1e-3;

function round(x: number): number {
  return Number(x.toPrecision(4));
}

const latencies: FittedConstant = {
  name: 'load latency per cache level and memory',
  fit(spec, data) {
    return data.levels.map((level, i) => {
      const m = data.latency[i];
      // The fastest iteration: a dependent load chain can only be slowed by what else runs on the
      // core or its caches (another tenant, an interrupt), never sped up.
      const value = round(m.minNs);
      const source = `measured: pointer chase over ${sizeText(level.workingSet)} on core ${data.cores[0]}, fastest of ${m.samples} iterations ${fmt(m.minNs)} per load (median ${fmt(m.medianNs)})`;
      if (level.cacheIndex === undefined) {
        for (const n of spec.numaNodes) n.latencyNs = value;
        return { field: 'numaNodes[*].latencyNs', value, source };
      }
      const level0 = spec.caches[level.cacheIndex].level;
      spec.caches.forEach((c) => c.level === level0 && !c.memorySide && (c.latencyNs = value));
      return { field: `caches[L${level0}].latencyNs`, value, source };
    });
  },
};

const peerLatency: FittedConstant = {
  name: 'cache-to-cache latency between two cores, behind a shared cache or across their NUMA node',
  fit(spec, data) {
    const run = data.lines;
    if (!run) return [];
    const [a, b] = run.cores;
    const m = run.results[0];
    // Measured directly: the model charges a flag's trip between the two cores this latency.
    const value = round(m.medianNs);
    const source = `measured: one cache line passed back and forth between cores ${a} and ${b}, ${fmt(m.medianNs)} per one-way trip (${spread(m)})`;
    // The innermost cache both cores use carries the line between them (a snoop or probe there).
    const shared = spec.caches
      .filter((c) => !c.memorySide && c.cores.includes(a) && c.cores.includes(b))
      .sort((x, y) => x.level - y.level)[0];
    if (shared === undefined) {
      // No cache in common: the other core's caches still answer the probe, across the fabric of
      // the package and node they share (topology.ts); across packages or nodes the trip stays
      // memory's and the links'.
      const [ca, cb] = [a, b].map((id) => spec.cores.find((c) => c.id === id));
      const node = spec.numaNodes.find((n) => n.id === ca?.numa);
      if (node === undefined || cb?.numa !== node.id || cb.package !== ca?.package) return [];
      node.peerLatencyNs = value;
      return [{ field: `numaNodes[${node.id}].peerLatencyNs`, value, source }];
    }
    const level = shared.level;
    spec.caches.forEach((c) => c.level === level && !c.memorySide && c.cores.length > 1 && (c.peerLatencyNs = value));
    return [{ field: `caches[L${level}].peerLatencyNs`, value, source }];
  },
};

const copyBandwidth: FittedConstant = {
  name: 'in-cache copy bandwidth of a core (and its L1)',
  fit(spec, data, initial = spec) {
    const l1 = data.levels[0];
    const m = data.copyOne[0];
    if (l1.cacheIndex === undefined) return [];
    const level = spec.caches[l1.cacheIndex].level;
    // The L1 copy's stores land in the L1 (planWrite), so this value bounds it, unless another bound
    // holds the copy slower than measured (fitBandwidth).
    const { value, note, kept } = fitBandwidth(
      spec,
      initial.costs.copyBandwidth,
      (bw) => {
        spec.costs.copyBandwidth = bw;
        spec.caches.forEach((c) => c.level === level && (c.bandwidth = bw));
      },
      [data.cores[0]],
      l1.workingSet / 2,
      m,
    );
    const source = `measured: memcpy of ${sizeText(l1.workingSet / 2)} warm in L${level}, one core, ${gbs(l1.workingSet / 2, m.medianNs)} (${spread(m)}); ${note}`;
    return [
      { field: 'costs.copyBandwidth', value, source, kept },
      { field: `caches[L${level}].bandwidth`, value, source, kept },
    ];
  },
};

const cacheBandwidths: FittedConstant = {
  name: 'bandwidth of each outer cache level',
  // Each level's copy (half of a working set of at most three quarters of the level) has its
  // destination within half the level, so its reads and its stores are both charged there
  // (planWrite); the levels are fitted outermost first, any dependence left settled by
  // calibrate.ts's second pass.
  fit(spec, data, initial = spec) {
    const out: FittedValue[] = [];
    [...data.levels.entries()].reverse().forEach(([i, probe]) => {
      if (i === 0 || probe.cacheIndex === undefined) return;
      const level = spec.caches[probe.cacheIndex].level;
      const m = data.copyOne[i];
      const bytes = probe.workingSet / 2;
      const { value, note, kept } = fitBandwidth(
        spec,
        initial.caches[probe.cacheIndex].bandwidth,
        (bw) => spec.caches.forEach((c) => c.level === level && !c.memorySide && (c.bandwidth = bw)),
        [data.cores[0]],
        bytes,
        m,
      );
      out.push({
        field: `caches[L${level}].bandwidth`,
        value,
        source: `measured: memcpy of ${sizeText(bytes)} warm in L${level}, one core, ${gbs(bytes, m.medianNs)} (${spread(m)}); ${note}`,
        kept,
      });
    });
    return out;
  },
};

/** Most misses in flight the stream fit tries: far above any core's prefetch queue (tens of lines), so
 *  that a count the model needs on a host with slow memory is still found. A search bound. */
const STREAM_MOST = 1024;

/** A bandwidth (bytes/ns) no memory reaches: a resource taken out of the way while another is fitted. */
const UNBOUNDED_BANDWIDTH = 1e4;

const streamConcurrency: FittedConstant = {
  name: 'misses one core keeps in flight for a prefetched stream',
  fit(spec, data, initial = spec) {
    const i = data.levels.length - 1;
    const bytes = data.levels[i].workingSet / 2;
    const m = data.copyOne[i];
    // A memcpy from memory is a long sequential stream: the L2 prefetcher's queue
    // (costs.streamConcurrency), not the L1 fill buffers, bounds it in the model. Integer by
    // definition: the smallest count at which the model is as fast as the measurement.
    // One core is held by its misses in flight, several by the memory controller: the memory's
    // bandwidth is fitted next from every core at once, so it is taken out of the way here.
    const before = initial.costs.streamConcurrency;
    const memory = spec.numaNodes.map((n) => n.bandwidth);
    spec.numaNodes.forEach((n) => (n.bandwidth = UNBOUNDED_BANDWIDTH));
    const time = (n: number) => {
      spec.costs.streamConcurrency = n;
      return modelCopyNs(spec, [data.cores[0]], bytes);
    };
    // The model's time falls as the count grows: the smallest count at or below the measurement, by
    // bisection; where none up to STREAM_MOST gets there, the smallest at the model's floor (as
    // fitBandwidth does), since no default of the L1's fill buffers is as fast as the copy measured.
    const floor = time(STREAM_MOST);
    // Where no count changes the model's time (no prefetched stream: no L2, or one no nearer than
    // memory), there is nothing to fit.
    const matters = time(1) > floor * (1 + FLOOR_REL);
    const reached = floor <= m.medianNs;
    const target = reached ? m.medianNs : floor * (1 + FLOOR_REL);
    let lo = 0;
    let hi = STREAM_MOST;
    while (matters && hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (time(mid) <= target) hi = mid;
      else lo = mid;
    }
    spec.numaNodes.forEach((n, i) => (n.bandwidth = memory[i]));
    spec.costs.streamConcurrency = matters ? hi : before;
    const how = !matters
      ? `not fitted: no count of stream prefetches changes the model's time there; kept ${before ?? 'none'}`
      : reached
        ? 'smallest count at which the model is as fast with the memory controller not limiting'
        : `no count up to ${STREAM_MOST} makes the model as fast (another resource bounds it, at ${fmt(floor)}): the smallest count at which the model's time is that floor (before calibration: ${before ?? 'none'})`;
    return [
      {
        field: 'costs.streamConcurrency',
        value: spec.costs.streamConcurrency ?? 'none',
        source: `measured: memcpy of ${sizeText(bytes)} from memory, one core, ${gbs(bytes, m.medianNs)} (${spread(m)}); ${how}`,
        ...(matters ? {} : { kept: true }),
      },
    ];
  },
};

const memoryBandwidth: FittedConstant = {
  name: 'memory controller bandwidth',
  fit(spec, data, initial = spec) {
    const run = data.copyAll;
    const i = data.levels.length - 1;
    const bytes = data.levels[i].workingSet / 2;
    const cores = run ? run.cores : [data.cores[0]];
    const m = run ? run.results[0] : data.copyOne[i];
    const { value, note, kept } = fitBandwidth(
      spec,
      initial.numaNodes[0].bandwidth,
      (bw) => spec.numaNodes.forEach((n) => (n.bandwidth = bw)),
      cores,
      bytes,
      m,
    );
    return [
      {
        field: 'numaNodes[*].bandwidth',
        value,
        source: `measured: memcpy of ${sizeText(bytes)} from memory on ${cores.length} core(s) at once, ${gbs(bytes * cores.length, m.medianNs)} together (${spread(m)}); ${note}`,
        kept,
      },
    ];
  },
};

const cmaSyscallAndPin: FittedConstant = {
  name: 'system call and per-page pinning cost (CMA)',
  fit(spec, data) {
    const sweep = data.cmaSweep;
    if (!sweep) return [];
    const algorithm = modelAlgorithm('onetoall', 'cma-read')!;
    const cores = sweep.cores;
    const at = (syscallNs: number, pinPerPageNs: number, bytes: number) => {
      spec.kernel.syscallNs = syscallNs;
      spec.kernel.pinPerPageNs = pinPerPageNs;
      return predictNs(spec, algorithm, cores, bytes, 'on');
    };
    // The model is linear in both: its time with both at zero, plus each one's effect per unit.
    const points = sweep.results.map((r) => {
      const base = at(0, 0, r.bytes);
      return {
        a: (at(1000, 0, r.bytes) - base) / 1000,
        b: (at(0, 1000, r.bytes) - base) / 1000,
        y: r.medianNs - base,
        w: 1 / r.medianNs ** 2,
      };
    });
    const { p, q } = nonNegativeFit2(points);
    spec.kernel.syscallNs = round(p);
    spec.kernel.pinPerPageNs = round(q);
    const sizes = sweep.results.map((r) => `${sizeText(r.bytes)} ${fmt(r.medianNs)}`).join(', ');
    const source = `measured: process_vm_readv by one reader, warm, ${sizes}; weighted least squares of relative error against the model with both at zero`;
    return [
      { field: 'kernel.syscallNs', value: spec.kernel.syscallNs, source },
      { field: 'kernel.pinPerPageNs', value: spec.kernel.pinPerPageNs, source },
    ];
  },
};

const firstUserAccess: FittedConstant = {
  name: "cost of the kernel's first access to a page through the caller's mapping (CMA)",
  fit(spec, data) {
    const sweep = data.cmaColdSweep;
    if (!sweep) return [];
    const algorithm = modelAlgorithm('onetoall', 'cma-read')!;
    // After the warm sweep's fit: what the cold sweep takes beyond the model's cold transfer (its
    // struct page misses, cold copies and write-backs included), per page the reader's kernel
    // reaches for the first time, in the same weighted least squares of relative error, clamped at
    // zero. The model runs the sweep's own calls, its rotation included, so that pages it reaches
    // again count as they did natively (at the sweep's sizes, every measured call reaches new ones).
    const at = (ns: number, bytes: number) => {
      spec.kernel.params.firstUserAccessNs = ns;
      const rotation =
        data.coldRotationBytes === undefined
          ? undefined
          : nativeRotation(sweep.bench, bytes, sweep.cores.length, data.coldRotationBytes);
      return predictNs(spec, algorithm, sweep.cores, bytes, 'off', {
        calls: { iterations: sweep.iterations, warmup: sweep.warmup, rotation },
      });
    };
    const points = sweep.results.map((r) => {
      const base = at(0, r.bytes);
      return { a: (at(1000, r.bytes) - base) / 1000, y: r.medianNs - base, w: 1 / r.medianNs ** 2 };
    });
    spec.kernel.params.firstUserAccessNs = round(nonNegativeFit1(points));
    const sizes = sweep.results.map((r) => `${sizeText(r.bytes)} ${fmt(r.medianNs)}`).join(', ');
    const rotation =
      data.coldRotationBytes === undefined
        ? ''
        : ` (buffers rotated over more than twice ${sizeText(data.coldRotationBytes)})`;
    return [
      {
        field: 'kernel.params.firstUserAccessNs',
        value: spec.kernel.params.firstUserAccessNs,
        source: `measured: process_vm_readv by one reader, cold${rotation}, ${sizes}; weighted least squares of relative error against the model with it at zero, after the warm sweep's syscall and pinning`,
      },
    ];
  },
};

/** The fewest and most claims in flight the fit tries: a quarter of one (a store far slower than a
 *  line's trip) to more than any core keeps misses in flight. */
const CLAIMS_FEWEST = 0.25;
const CLAIMS_MOST = 64;

const claimConcurrency: FittedConstant = {
  name: "ownership claims in flight for lines another core holds (the double copy's ring)",
  fit(spec, data) {
    const run = data.claims;
    if (!run) return [];
    const m = run.results[0];
    // The writer's copy into ring lines the reader has just read, alone (nothing overlaps it, as a
    // pipelined ping-pong's copies would): the fewer claims in flight, the slower. The count at
    // which the model's copy takes the measured time.
    const before = spec.costs.claimConcurrency;
    const { x, reached } = solveDecreasing(
      (c) => {
        spec.costs.claimConcurrency = c;
        return modelClaimsNs(spec, run.cores, m.bytes);
      },
      m.medianNs,
      CLAIMS_FEWEST,
      CLAIMS_MOST,
    );
    const what = `measured: core ${run.cores[0]} copying ${sizeText(m.bytes)} into the double copy's ring just read by core ${run.cores[1]}, warm, ${fmt(m.medianNs)} (${spread(m)})`;
    // Faster than measured even with the fewest claims in flight: the model's copy does not wait
    // on claims between these cores (they share no cache below memory), so the count would only
    // be the bisection's bound, wrong for every pair that does.
    const notFitted = !reached
      ? `the model is slower than that even with ${CLAIMS_MOST} claims in flight (another resource bounds it)`
      : x <= CLAIMS_FEWEST
        ? `the model is faster than that even with ${CLAIMS_FEWEST} claims in flight (its copy does not wait on claims between these two cores)`
        : undefined;
    if (notFitted !== undefined) {
      spec.costs.claimConcurrency = before;
      return [
        {
          field: 'costs.claimConcurrency',
          value: before ?? 'none',
          source: `${what}; not fitted: ${notFitted}`,
          kept: true,
        },
      ];
    }
    spec.costs.claimConcurrency = round(x);
    return [
      {
        field: 'costs.claimConcurrency',
        value: spec.costs.claimConcurrency,
        source: `${what}; model-in-the-loop fit to it`,
      },
    ];
  },
};

const cmaLock: FittedConstant = {
  name: 'CMA address-space lock: exclusive or shared',
  fit(spec, data) {
    if (data.cmaReaders.length === 0) return [];
    const algorithm = modelAlgorithm('onetoall', 'cma-read')!;
    const error = (mode: 'exclusive' | 'shared') => {
      spec.kernel.cmaLockMode = mode;
      let sum = 0;
      for (const run of data.cmaReaders)
        for (const r of run.results)
          sum += ((predictNs(spec, algorithm, run.cores, r.bytes, 'on') - r.medianNs) / r.medianNs) ** 2;
      return sum;
    };
    const exclusive = error('exclusive');
    const shared = error('shared');
    spec.kernel.cmaLockMode = exclusive <= shared ? 'exclusive' : 'shared';
    const readers = data.cmaReaders.map((r) => r.ranks - 1).join(', ');
    return [
      {
        field: 'kernel.cmaLockMode',
        value: spec.kernel.cmaLockMode,
        source: `measured: ${readers} readers of one process over CMA; the mode with the smaller squared relative error (exclusive ${exclusive.toFixed(3)}, shared ${shared.toFixed(3)})`,
      },
    ];
  },
};

const lastLevelCapacity: FittedConstant = {
  name: 'capacity of the outermost cache this process gets',
  // Set on the machine during training (training.ts): the first chase's before the level probes are
  // sized, so that they fit in it, then the capacity over every chase, never smaller; said here.
  fit(spec, data) {
    const cap = data.capacity;
    if (!cap?.found) return [];
    setCapacity(spec, cap.cacheIndex, cap.found.bytes);
    return [
      { field: `caches[L${spec.caches[cap.cacheIndex].level}].size`, value: cap.found.bytes, source: cap.found.source },
    ];
  },
};

export const FITTED_CONSTANTS: FittedConstant[] = [
  lastLevelCapacity,
  latencies,
  peerLatency,
  cacheBandwidths,
  copyBandwidth,
  streamConcurrency,
  memoryBandwidth,
  claimConcurrency,
  cmaSyscallAndPin,
  firstUserAccess,
  cmaLock,
];

/** Constants the training set cannot determine on this host, and why (printed by calibrate). */
export function unfitted(data: TrainingData): string[] {
  const out = [
    'costs.reduceBandwidth: no reduction benchmark in the training set; the import default stays',
    'costs.missConcurrency: every training copy is a prefetched stream and the pointer chase measures latency, not concurrency; the import default stays',
    'numaNodes[*].writeCost: needs memory bandwidth read alone and read with writes; the training set has only copies, whose mix is fixed',
    'costs.kernelStores, costs.memcpyNonTemporalShare: how the kernel and the C library store is a property of their code, not measured here; left as detected',
    'kernel.params.kernelCopyEfficiency: confounded with pinPerPage in a one-reader CMA sweep (both grow with size); stays 1',
  ];
  if (data.cores.length < 2)
    out.push(
      'kernel.syscallNs, kernel.pinPerPageNs, kernel.params.firstUserAccessNs: CMA needs two cores; import defaults stay',
      'caches[*].peerLatencyNs, numaNodes[*].peerLatencyNs: a line passed between cores needs two; shared caches keep their hit latency for it, cores sharing none memory latency',
    );
  else if (!data.cmaSweep)
    out.push(
      `kernel.syscallNs, kernel.pinPerPageNs, kernel.params.firstUserAccessNs: CMA refused (${data.cma?.cma ?? 'not probed'}); import defaults stay`,
    );
  if (data.cmaReaders.length === 0)
    out.push('kernel.cmaLockMode: two readers of one process need three cores; the import default stays');
  return out;
}
