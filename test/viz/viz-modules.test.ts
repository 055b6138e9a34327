// The visualizer's logic that needs no browser: running a scenario text as the worker does, the
// what-if edits, the state in the URL, and that nothing the worker or the page bundles imports Node.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../common/input-error.ts';
import { loadPreset } from '../../hardware/presets.ts';
import { applyEdits } from '../../viz/src/machine-edits.ts';
import type { RunInput } from '../../viz/src/protocol.ts';
import { loadInput, locate, runInput, traceJson } from '../../viz/src/simulate.ts';
import { decodeState, encodeState } from '../../viz/src/url-state.ts';
import { isPlotted } from '../../viz/src/views/utilisation-view.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PRESET_DIR = join(ROOT, 'hardware', 'presets');
const presets = Object.fromEntries(
  readdirSync(PRESET_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => [f.slice(0, -5), readFileSync(join(PRESET_DIR, f), 'utf8')]),
);
const sources = { presets };

const SCENARIO = `name: viz
machine: dancer
ranks: 4
operation: bcast
algorithms: [binomial, knem-linear]
sizes: [64KiB, 1MiB]
iterations: 2
`;

describe('the worker run', () => {
  it('runs every point with its steps and loads, and the what-if beside it', () => {
    let calls = 0;
    const input = { scenario: SCENARIO, edits: [{ kind: 'numa' as const, id: '0', value: 2 }], uploads: [] };
    const { run, traces } = runInput(input, sources, () => calls++);
    expect(run.algorithms).toEqual(['binomial', 'knem-linear']);
    expect(run.original.points).toHaveLength(4);
    expect(run.whatIf!.points).toHaveLength(4);
    expect(calls).toBe(8);
    expect(traces).toHaveLength(8);
    for (const p of run.original.points) {
      expect(p.events.length).toBeGreaterThan(0);
      expect(p.loads.some((s) => s.flows !== undefined)).toBe(true);
    }
    expect(run.whatIf!.machines[0].numaNodes[0].bandwidth).toBe(2);
    expect(run.whatIf!.points.some((p, i) => p.meanNs !== run.original.points[i].meanNs)).toBe(true);
    const doc = JSON.parse(traceJson(traces)) as { traceEvents: { name: string }[] };
    expect(doc.traceEvents.filter((e) => e.name === 'process_name')).toHaveLength(8);
  });

  it('runs only the what-if side when the scenario, machine and uploads are those of the run before', () => {
    const plain = { scenario: SCENARIO, edits: [], uploads: [] };
    const first = runInput(plain, sources, () => {});
    const edited = { ...plain, edits: [{ kind: 'numa' as const, id: '0', value: 2 }] };
    let calls = 0;
    const reusing = runInput(edited, sources, () => calls++, first.original);
    expect(calls).toBe(4);
    expect(reusing.run.original).toBe(first.run.original);
    // The same data as a run that simulates both sides.
    const full = runInput(edited, sources, () => {});
    expect(JSON.stringify(reusing.run)).toBe(JSON.stringify(full.run));
    expect(traceJson(reusing.traces)).toBe(traceJson(full.traces));
    // Another scenario text, machine or upload runs both sides again.
    // (Zoot without the edits, which name Dancer's NUMA node: its 4 points are the original side's.)
    const others: [RunInput, number][] = [
      [{ ...edited, scenario: SCENARIO.replace('iterations: 2', 'iterations: 3') }, 8],
      [{ ...plain, machine: 'zoot' }, 4],
      [{ ...edited, uploads: [{ name: 'mine.yaml', text: presets.zoot }] }, 8],
    ];
    for (const [other, points] of others) {
      calls = 0;
      runInput(other, sources, () => calls++, first.original);
      expect(calls).toBe(points);
    }
  });

  it('runs a machine-parameter sweep, its tables named by their values, what-if edits on every variant', () => {
    const scenario = `${SCENARIO.replace('sizes: [64KiB, 1MiB]', 'sizes: [1MiB]')}sweep:\n  machine.costs.copyBandwidth: [4, 8]\n`;
    const input = { scenario, edits: [{ kind: 'link' as const, id: 'QPI pkg0-pkg1', value: 1 }], uploads: [] };
    const { run } = runInput(input, sources, () => {});
    expect(run.original.points.map((p) => p.tableTitle)).toEqual([
      'dancer (costs.copyBandwidth = 4), 4 ranks, compact, seed intranode',
      'dancer (costs.copyBandwidth = 4), 4 ranks, compact, seed intranode',
      'dancer (costs.copyBandwidth = 8), 4 ranks, compact, seed intranode',
      'dancer (costs.copyBandwidth = 8), 4 ranks, compact, seed intranode',
    ]);
    expect(run.whatIf!.points).toHaveLength(4);
    // Each table's machine is its own variant's, edited.
    expect(run.whatIf!.machines.map((m) => [m.links[0].bandwidth, m.costs.copyBandwidth])).toEqual([
      [1, 4],
      [1, 8],
    ]);
    expect(run.original.machines.map((m) => m.costs.copyBandwidth)).toEqual([4, 8]);
  });

  it('names the root in the titles of a root sweep, and names a trace once as what-if', () => {
    const scenario = `${SCENARIO.replace('sizes: [64KiB, 1MiB]', 'sizes: [64KiB]')}sweep:\n  root: [0, 2]\n`;
    const input = { scenario, edits: [{ kind: 'numa' as const, id: '0', value: 2 }], uploads: [] };
    const { run, traces } = runInput(input, sources, () => {});
    expect([...new Set(run.original.points.map((p) => p.tableTitle))]).toEqual([
      'dancer, 4 ranks, compact, root 0, seed intranode',
      'dancer, 4 ranks, compact, root 2, seed intranode',
    ]);
    expect(traces.map((t) => t.label.split('(what-if)').length - 1)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
  });

  it('reports a scenario mistake with its line and field', () => {
    const bad = SCENARIO.replace('ranks: 4', 'ranks: four');
    let caught: unknown;
    try {
      loadInput({ scenario: bad, edits: [], uploads: [] }, sources);
    } catch (e) {
      caught = e;
    }
    expect(locate(caught)).toMatchObject({ line: 3, field: 'ranks' });
  });

  it('takes machines from uploads and names unknown ones', () => {
    const upload = { name: 'mine.yaml', text: presets.zoot };
    const s = loadInput({ scenario: SCENARIO, machine: 'mine.yaml', edits: [], uploads: [upload] }, sources);
    expect(s.machines[0].spec.origin).toBe('mine.yaml');
    expect(() => loadInput({ scenario: SCENARIO.replace('dancer', 'dancr'), edits: [], uploads: [] }, sources)).toThrow(
      /scenario.yaml:2:10 \(machine\).*did you mean 'dancer'/,
    );
  });
});

describe('what-if edits', () => {
  it('change a copy of the machine and name a part that does not exist', () => {
    const spec = loadPreset('dancer');
    const link = spec.links[0].name;
    const edited = applyEdits(spec, [
      { kind: 'link', id: link, value: 3 },
      { kind: 'cache', id: spec.caches.find((c) => c.cores.length > 1)!.id, value: 1 << 20 },
      { kind: 'copy', id: '', value: 5 },
    ]);
    expect(edited.links[0].bandwidth).toBe(3);
    expect(edited.costs.copyBandwidth).toBe(5);
    const knl = loadPreset('knl');
    const tiles = applyEdits(knl, [{ kind: 'cache', id: 'level:2', value: 2 << 20 }]);
    expect(tiles.caches.filter((c) => c.level === 2).every((c) => c.sizeBytes === 2 << 20)).toBe(true);
    expect(() => applyEdits(knl, [{ kind: 'cache', id: 'level:9', value: 1 }])).toThrow(InputError);
    expect(spec.links[0].bandwidth).not.toBe(3);
    expect(() => applyEdits(spec, [{ kind: 'link', id: 'nope', value: 1 }])).toThrow(InputError);
    expect(() => applyEdits(spec, [{ kind: 'numa', id: '0', value: -1 }])).toThrow(/positive/);
  });

  it('keeps fewer memory controllers, their cores and memory going to the ones kept', () => {
    const spec = loadPreset('dancer');
    const one = applyEdits(spec, [{ kind: 'controllers', id: '', value: 1 }]);
    expect(one.numaNodes).toHaveLength(1);
    expect(one.numaNodes[0].memoryBytes).toBe(spec.numaNodes[0].memoryBytes + spec.numaNodes[1].memoryBytes);
    expect(new Set(one.cores.map((c) => c.numa))).toEqual(new Set([spec.numaNodes[0].id]));
    expect(() => applyEdits(spec, [{ kind: 'controllers', id: '', value: 3 }])).toThrow(/2 memory controllers/);
  });
});

describe('URL state', () => {
  const TABS = ['comparison', 'timeline'];
  it('round-trips the scenario, machine, edits, view and pick', () => {
    const state = {
      scenario: 'name: é ü ✓\nsizes: [1KiB]\n',
      machine: 'zoot',
      edits: [{ kind: 'link' as const, id: 'QPI pkg0-pkg1', value: 4.5 }],
      tab: 'timeline',
      pick: 'w3',
      table: 2,
      baseline: 'binomial',
    };
    expect(decodeState(`#${encodeState(state)}`, TABS)).toEqual({ ...state, problems: [] });
  });

  it('names what it cannot read instead of dropping it silently', () => {
    const out = decodeState('#s=%%%&e=bm90IGpzb24&v=timelin&p=x3&t=two', TABS);
    expect(out).toEqual({
      edits: [],
      problems: [
        'the scenario in the link (s=) is not valid base64url',
        'the machine edits in the link (e=) cannot be read',
        'the view in the link (v=timelin) is not one of comparison, timeline',
        'the picked point in the link (p=x3) cannot be read',
        'the sweep table in the link (t=two) cannot be read',
      ],
    });
  });
});

/** Relative and package imports of a module, static and dynamic. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
  found.push(...[...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]));
  found.push(...[...text.matchAll(/^import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]));
  return found;
}

describe('browser bundle', () => {
  it.each(['viz/src/worker.ts', 'viz/src/main.ts'])('%s reaches no Node built-in module', (entry) => {
    const builtins = new Set(builtinModules);
    const seen = new Set<string>();
    const offenders: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of importsOf(file)) {
        if (spec.startsWith('node:') || builtins.has(spec))
          offenders.push(`${file.slice(ROOT.length)} imports ${spec}`);
        else if (spec.startsWith('.') && spec.endsWith('.ts')) visit(resolve(dirname(file), spec));
      }
    };
    visit(join(ROOT, entry));
    expect(seen.size).toBeGreaterThan(5);
    expect(offenders).toEqual([]);
  });
});

describe('the utilisation view', () => {
  it('plots memory controllers, their write lanes and link directions, nothing else', () => {
    for (const r of ['mem0', 'mem12', 'mem3 writes', 'QPI pkg0-pkg1 pkg0->pkg1']) expect(isPlotted(r)).toBe(true);
    for (const r of ['cache L3#0', 'core3 engine', 'mem0 writes x', 'memo']) expect(isPlotted(r)).toBe(false);
  });
});
