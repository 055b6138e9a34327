// One JSON document for a whole scenario. Keys are written in a fixed order (objects are built
// field by field, maps sorted) so the same run always gives byte-identical output.
import { basename } from 'node:path';
import type { ParamValue } from '../../algorithms/algorithm.ts';
import type { ScenarioResult } from '../run.ts';
import { normalised } from './normalise.ts';
import { warmupBeyondAsked } from '../../algorithms/harness/cold-warmup.ts';
import type { MachineSpec } from '../../hardware/spec.ts';

export function formatJsonReport(result: ScenarioResult): string {
  const s = result.scenario;
  // Only where a cache-off run warmed up for more calls than `scenario.warmup` asked.
  const warmupMade = (spec: MachineSpec) => {
    const made = warmupBeyondAsked(s.cache, s.warmup, spec);
    return made === undefined ? {} : { warmupMade: made };
  };
  const doc = {
    scenario: {
      name: s.name,
      description: s.description,
      // The file name alone: the path as typed would make the same run differ by working directory.
      file: s.file === undefined ? null : basename(s.file),
      operation: s.operation,
      // Swept roots are per table.
      root: s.rooted && !s.rootSweep ? s.root : null,
      cache: s.cache,
      ...(s.buffers === 'fresh' ? { buffers: s.buffers } : {}),
      iterations: s.iterations,
      warmup: s.warmup,
      // Swept seeds are per table.
      seed: s.seedSweep ? null : s.seed,
      skewNs: s.skewNs ?? 0,
      baseline: s.baseline,
      algorithms: s.algorithms.map((a) => ({ label: a.label, name: a.name, params: sorted(a.params) })),
      sizes: s.sizes,
      ...(s.countsKind ? { counts: s.counts ?? null } : {}),
      ...(s.machineParameters ? { machineParameters: s.machineParameters } : {}),
    },
    tables: result.tables.map((t) => ({
      machine: {
        ref: t.machine.ref,
        name: t.machine.spec.name,
        ...(t.machine.parameters
          ? { parameters: t.machine.parameters.map((p) => ({ path: p.path, value: p.value, shown: p.shown })) }
          : {}),
      },
      ranks: t.ranks,
      placement: t.placement,
      seed: t.seed,
      ...(s.rootSweep ? { root: t.root } : {}),
      ...(t.railShare !== undefined ? { railShare: t.railShare } : {}),
      cores: t.cores,
      ...(t.threads ? { threads: t.threads } : {}),
      ...warmupMade(t.machine.spec),
      rows: t.rows.map((row) => ({
        bytes: row.bytes,
        results: row.cells.map((c) =>
          c.unavailable !== undefined
            ? {
                label: c.algorithm.label,
                algorithm: c.algorithm.name,
                meanNs: null,
                minNs: null,
                maxNs: null,
                normalized: null,
                breakdown: null,
                libraryBytes: null,
                unavailable: c.unavailable,
              }
            : {
                label: c.algorithm.label,
                algorithm: c.algorithm.name,
                meanNs: c.result.meanNs,
                minNs: c.result.minNs,
                maxNs: c.result.maxNs,
                normalized: normalised(c, row.cells, s.baseline) ?? null,
                breakdown: sorted(c.result.breakdown),
                libraryBytes: c.result.libraryBytes,
                ...(c.result.replayed ? { replayedCalls: c.result.replayed.calls } : {}),
              },
        ),
      })),
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function sorted<V extends ParamValue>(record: Record<string, V>): Record<string, V> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
