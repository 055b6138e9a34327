// Ranks on hardware threads (SMT): orders of the named placements with `smt: on`, hardware threads
// in core lists, the errors of every misuse, and what two sibling threads share in the node model.
import { describe, expect, it } from 'vitest';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { expandScenario, placedOn } from '../../scenarios/expand.ts';
import { placeRanks, placeThreads, PlacementError } from '../../scenarios/placement.ts';
import { loadPreset } from '../../hardware/presets.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range } from '../../sim/node/buffer.ts';
import { fakeCatalogue, fakeMachine, fakeResolver } from './fixtures.ts';
import { inputErrorOf } from '../helpers/input-error.ts';
import { runPrograms } from '../helpers/run-programs.ts';

/** The two-socket test machine with two hardware threads per core. */
function smtMachine(): MachineSpec {
  const m = fakeMachine('smt', 2, 2);
  return { ...m, cores: m.cores.map((c) => ({ ...c, threads: 2 })) };
}

const names = (m: MachineSpec, n: number, p: Parameters<typeof placeThreads>[2], seed = '') =>
  placeThreads(m, n, p, seed, true).map((t) => `${t.core}.${t.thread}`);

describe('placement on hardware threads', () => {
  const m = smtMachine();

  it('compact fills each core\u2019s threads before the next core', () => {
    expect(names(m, 8, 'compact')).toEqual(['0.0', '0.1', '2.0', '2.1', '1.0', '1.1', '3.0', '3.1']);
  });

  it('scatter gives every core one rank before any core a second', () => {
    expect(names(m, 8, 'scatter')).toEqual(['0.0', '1.0', '2.0', '3.0', '0.1', '1.1', '2.1', '3.1']);
  });

  it('random shuffles every thread, the same for the same seed', () => {
    const order = names(m, 8, 'random', 'a');
    expect([...order].sort()).toEqual(['0.0', '0.1', '1.0', '1.1', '2.0', '2.1', '3.0', '3.1']);
    expect(names(m, 8, 'random', 'a')).toEqual(order);
  });

  it('without smt, named placements use first threads only, as before', () => {
    expect(placeThreads(m, 4, 'compact').every((t) => t.thread === 0)).toBe(true);
    expect(placeRanks(m, 4, 'scatter')).toEqual(placeRanks(m, 4, 'scatter', '', false));
    expect(() => placeRanks(m, 5, 'compact')).toThrow("5 ranks do not fit on machine 'smt', which has 4 cores");
    expect(() => placeRanks(m, 9, 'compact', '', true)).toThrow('which has 8 hardware threads');
  });

  it('takes hardware threads in core lists, and rejects a thread the core lacks or a thread twice', () => {
    expect(placeRanks(m, 2, [{ core: 1, thread: 1 }, 1])).toEqual([1, 1]);
    expect(() => placeRanks(m, 1, [{ core: 1, thread: 2 }])).toThrow(
      new PlacementError("core 1 of machine 'smt' has 2 hardware threads (0..1), not thread 2", 0),
    );
    expect(() => placeRanks(m, 2, [1, { core: 1, thread: 0 }])).toThrow(
      new PlacementError('hardware thread 1.0 is listed twice', 1),
    );
  });
});

describe('smt in scenarios', () => {
  const resolve = (ref: string, dir: string) => (ref === 'smt' ? smtMachine() : fakeResolver(ref, dir));
  const load = (text: string) =>
    loadScenarioText(text, { file: 'study.yaml', resolveMachine: resolve, catalogue: fakeCatalogue });
  const BASE = `operation: test-op
algorithms: [linear]
sizes: 1KiB
`;

  it('runs ranks: all on every hardware thread with smt: on, and names the threads', () => {
    const [t] = expandScenario(load(`machine: smt\nranks: all\nsmt: on\n${BASE}`));
    expect(t.ranks).toBe(8);
    expect(t.cores).toEqual([0, 0, 2, 2, 1, 1, 3, 3]);
    expect(placedOn(t)).toBe('hardware threads 0.0 0.1 2.0 2.1 1.0 1.1 3.0 3.1');
    expect(t.rows[0].cells[0].point.cores).toEqual([0, 0, 2, 2, 1, 1, 3, 3]);
  });

  it('keeps tables on cores as they were without smt', () => {
    const [t] = expandScenario(load(`machine: smt\nranks: 2\n${BASE}`));
    expect(t.threads).toBeUndefined();
    expect(placedOn(t)).toBe('cores 0 2');
  });

  it('reads hardware threads in a core list', () => {
    const s = load(`machine: smt\nplacement: [{ core: 3, thread: 1 }, 3]\n${BASE}`);
    expect(s.placements).toEqual([[{ core: 3, thread: 1 }, 3]]);
    expect(placedOn(expandScenario(s)[0])).toBe('hardware threads 3.1 3.0');
  });

  it.each([
    [
      `machine: two-socket\nranks: 2\nsmt: on\n${BASE}`,
      "study.yaml:3:6 (smt): smt: on, but machine 'two-socket' has one hardware thread per core",
    ],
    [`machine: smt\nranks: 2\nsmt: yes\n${BASE}`, "(smt): smt must be 'on' or 'off'"],
    [
      `machine: smt\nranks: 9\nsmt: on\n${BASE}`,
      "(ranks): 9 ranks do not fit on machine 'smt', which has 8 hardware threads",
    ],
    [
      `machine: smt\nplacement: [{ core: 0, thread: 2 }]\n${BASE}`,
      "(placement[0]): core 0 of machine 'smt' has 2 hardware threads (0..1), not thread 2",
    ],
    [
      `machine: smt\nplacement: [{ core: 0 }]\n${BASE}`,
      "(placement[0]): a hardware thread needs both 'core' and 'thread'",
    ],
    [
      `machine: smt\nplacement: [{ core: 0, threads: 1 }]\n${BASE}`,
      "(placement[0].threads): unknown key 'threads' in a hardware thread (did you mean 'thread'?)",
    ],
    [`machine: smt\nplacement: [{ core: 0, thread: -1 }]\n${BASE}`, '(placement[0].thread)'],
    [
      `machine: smt\nplacement: [0, 1]\nsmt: on\n${BASE}`,
      '(smt): smt: on changes only compact, scatter, random and ranks: all',
    ],
  ])('rejects %j', (text, message) => {
    expect(inputErrorOf(() => load(text)).message).toContain(message);
  });
});

describe('sibling threads share their core', () => {
  it("two copies on sibling threads share the core's copy engine: together they take longer than one alone", () => {
    const westmere = loadPreset('westmere');
    const time = (cores: number[]) => {
      const node = new Node(new Simulation({ seed: 'smt' }), westmere);
      const programs = cores.map((core, i) => {
        const src = node.allocate(`src${i}`, 1 << 16, i, 0);
        const dst = node.allocate(`dst${i}`, 1 << 16, i, 0);
        node.cache(node.topo.cachesOf(core)[0].id).touch(src.id, 0, 1 << 16);
        return node.copy(core, range(src), range(dst), { rank: i, label: 'copy' });
      });
      return Math.max(...runPrograms(node.sim, programs));
    };
    const alone = time([0]);
    expect(time([0, 0])).toBeGreaterThan(alone * 1.5);
    expect(time([0, 1])).toBeLessThan(time([0, 0]));
  });
});
