import { describe, expect, it } from 'vitest';
import { InputError } from '../../common/input-error.ts';
import { loadScenarioText, type LoadOptions } from '../../scenarios/loader.ts';
import { loadScenarioFile } from '../../scenarios/scenario-file.ts';
import { fakeMachine, fakeResolver, MACHINES, fakeCatalogue } from './fixtures.ts';
import { inputErrorOf } from '../helpers/input-error.ts';

const BASE = `name: t
machine: two-socket
ranks: 4
operation: test-op
algorithms:
  - linear
  - { name: tree, label: binomial }
sizes: 1KiB..4KiB
`;

const load = (text: string, opts: Partial<LoadOptions> = {}) =>
  loadScenarioText(text, { file: 'study.yaml', resolveMachine: fakeResolver, catalogue: fakeCatalogue, ...opts });

const errorOf = (text: string, opts: Partial<LoadOptions> = {}): InputError => inputErrorOf(() => load(text, opts));

describe('loading a valid scenario', () => {
  it('keeps the line breaks of a description, which the reports print one line each', () => {
    expect(load(`${BASE}description: |\n  first\n  second\n`).description).toBe('first\nsecond\n');
  });

  it('resolves names, sizes and defaults', () => {
    const s = load(BASE);
    expect(s).toMatchObject({
      name: 't',
      description: '',
      file: 'study.yaml',
      operation: 'test-op',
      rooted: true,
      sizes: [1024, 2048, 4096],
      root: 0,
      cache: 'off',
      iterations: 5,
      warmup: 1,
      seed: 'intranode',
      baseline: 'linear',
      placements: ['compact'],
      ranks: [4],
    });
    expect(s.machines).toEqual([{ ref: 'two-socket', spec: MACHINES['two-socket'] }]);
    expect(s.algorithms.map((a) => [a.name, a.label])).toEqual([
      ['test-op:linear', 'linear'],
      ['test-op:tree', 'binomial'],
    ]);
    expect(s.algorithms[0].params).toEqual({ segment: 65536, depth: 2, direction: 'read', async: false, factor: 1.5 });
  });

  it('reads parameters of every kind and labels entries by them', () => {
    const s = load(
      `${BASE.replace('  - linear\n', '  - { name: test-op:linear, params: { segment: 256KiB, depth: 3, direction: write, async: true, factor: 0.5 } }\n')}`,
    );
    expect(s.algorithms[0].params).toEqual({ segment: 262144, depth: 3, direction: 'write', async: true, factor: 0.5 });
    expect(s.algorithms[0].label).toBe('linear(segment=256KiB,depth=3,direction=write,async=true,factor=0.5)');
  });

  it("takes XPMEM's options where point-to-point sends through XPMEM", () => {
    const s = load(BASE.replace('  - linear', '  - { name: linear, params: { single: xpmem, regcache: false } }'));
    expect(s.algorithms[0].params).toMatchObject({ single: 'xpmem', regcache: false });
  });

  it('takes sizes as a list mixing sizes and ranges, sorted without repeats', () => {
    expect(load(BASE.replace('sizes: 1KiB..4KiB', 'sizes: [8KiB, 1KiB..4KiB, 2048, 0]')).sizes).toEqual([
      0, 1024, 2048, 4096, 8192,
    ]);
  });

  it('honours root, cache, iterations, seed and baseline', () => {
    const s = load(`${BASE}root: 3\ncache: on\niterations: 7\nwarmup: 0\nseed: 42\nbaseline: binomial\n`);
    expect(s).toMatchObject({ root: 3, cache: 'on', iterations: 7, warmup: 0, seed: '42', baseline: 'binomial' });
  });

  it('defaults ranks to the length of an explicit core list', () => {
    const s = load(BASE.replace('ranks: 4', 'placement: [0, 5, 2]'));
    expect(s.ranks).toEqual([3]);
    expect(s.placements).toEqual([[0, 5, 2]]);
  });

  it("takes 'all' ranks, one per core of each machine", () => {
    expect(load(BASE.replace('ranks: 4', 'ranks: all')).ranks).toEqual(['all']);
    expect(() => load(`${BASE.replace('ranks: 4', 'ranks: all')}root: 8\n`)).toThrow(
      'root 8 is outside the communicator of 8 ranks (0..7)',
    );
  });

  it('reads sweeps over ranks, machines and placements', () => {
    const s = load(
      `${BASE.replace('machine: two-socket\nranks: 4\n', '')}sweep:\n  ranks: [2, 4]\n  machine: [two-socket, sub-numa]\n  placement: [compact, scatter]\n`,
    );
    expect(s.ranks).toEqual([2, 4]);
    expect(s.machines.map((m) => m.ref)).toEqual(['two-socket', 'sub-numa']);
    expect(s.placements).toEqual(['compact', 'scatter']);
  });

  it('lets --machine and --seed replace the scenario values', () => {
    const s = load(`${BASE}seed: a\n`, { machineOverride: 'sub-numa', seedOverride: 'b' });
    expect(s.machines.map((m) => m.ref)).toEqual(['sub-numa']);
    expect(s.seed).toBe('b');
  });

  it('resolves machine paths relative to the scenario file', () => {
    const seen: string[] = [];
    load(BASE, {
      file: 'studies/a/s.yaml',
      cwd: '/home/u',
      resolveMachine: (ref, dir) => (seen.push(`${dir}|${ref}`), MACHINES['two-socket']),
    });
    expect(seen).toEqual(['/home/u/studies/a|two-socket']);
  });

  it('follows YAML anchors and aliases', () => {
    const s = load(BASE.replace('sizes: 1KiB..4KiB', 'sizes: &s 2KiB\nseed: *s'));
    expect(s.seed).toBe('2KiB');
  });
});

describe('loader errors name file, line:column and field', () => {
  const cases: [string, string, string][] = [
    // [description, document, expected message]
    [
      'a line break in the name, which would break the report header',
      BASE.replace('name: t', 'name: "a\\nb"'),
      'study.yaml:1:7 (name): name must be printable on one line: it holds a line break',
    ],
    [
      'a tab in a label, which would break the table columns',
      BASE.replace('label: binomial', 'label: "bi\\tnomial"'),
      'study.yaml:7:26 (algorithms[1].label): label must be printable on one line: it holds a tab',
    ],
    [
      'a carriage return in the description',
      `${BASE}description: "one\\rtwo"\n`,
      'study.yaml:9:14 (description): description must be printable: it holds the control character U+000D',
    ],
    ['YAML syntax', `${BASE}algorithms: [a, b\n`, 'study.yaml:9:'],
    [
      'a size list left open at the end',
      BASE.replace('sizes: 1KiB..4KiB', 'sizes: [1KiB, 2KiB'),
      "study.yaml:8:8 (sizes): YAML syntax error: the list opened here is not closed with ']'",
    ],
    [
      'an algorithm list left open before the next key',
      BASE.replace('  - linear\n  - { name: tree, label: binomial }', '  - [linear, tree'),
      "study.yaml:6:5 (algorithms[0]): YAML syntax error: the list opened here is not closed with ']'",
    ],
    [
      'an unknown key',
      BASE.replace('ranks: 4', 'rank: 4'),
      "study.yaml:3:1 (rank): unknown key 'rank' in the scenario (did you mean 'ranks'?)",
    ],
    [
      'a wrong type',
      BASE.replace('ranks: 4', 'ranks: four'),
      "study.yaml:3:8 (ranks): ranks must be an integer or 'all', got 'four'",
    ],
    [
      'a fractional rank count',
      BASE.replace('ranks: 4', 'ranks: 2.5'),
      'study.yaml:3:8 (ranks): ranks must be an integer, got 2.5',
    ],
    ['zero ranks', BASE.replace('ranks: 4', 'ranks: 0'), 'study.yaml:3:8 (ranks): ranks must be at least 1, got 0'],
    [
      'more ranks than cores',
      BASE.replace('ranks: 4', 'ranks: 9'),
      "study.yaml:3:8 (ranks): 9 ranks do not fit on machine 'two-socket', which has 8 cores",
    ],
    [
      'a core the machine lacks',
      BASE.replace('ranks: 4', 'ranks: 2\nplacement: [0, 8]'),
      "study.yaml:4:16 (placement[1]): machine 'two-socket' has no core 8 (cores: 0-7)",
    ],
    [
      'a core named twice',
      BASE.replace('ranks: 4', 'ranks: 3\nplacement: [1, 2, 1]'),
      'study.yaml:4:19 (placement[2]): core 1 is listed twice',
    ],
    [
      'a core list too short',
      BASE.replace('ranks: 4', 'ranks: 3\nplacement: [1, 2]'),
      'study.yaml:4:12 (placement): the core list names 2 cores but the scenario runs 3 ranks',
    ],
    [
      'an unknown placement',
      BASE.replace('ranks: 4', 'ranks: 4\nplacement: scater'),
      "study.yaml:4:12 (placement): placement must be compact, scatter, random or a list of cores such as [0, 4, 8], got 'scater' (did you mean 'scatter'?)",
    ],
    [
      'a negative size',
      BASE.replace('sizes: 1KiB..4KiB', 'sizes: [1KiB, -4]'),
      "study.yaml:8:15 (sizes[1]): size '-4' is negative",
    ],
    [
      'an empty size range',
      BASE.replace('sizes: 1KiB..4KiB', 'sizes: 4KiB..1KiB'),
      "study.yaml:8:8 (sizes): size range '4KiB..1KiB' is empty: 4KiB is larger than 1KiB",
    ],
    [
      'an empty size list',
      BASE.replace('sizes: 1KiB..4KiB', 'sizes: []'),
      'study.yaml:8:8 (sizes): sizes must list at least one size',
    ],
    [
      'an unknown preset',
      BASE.replace('machine: two-socket', 'machine: three-socket'),
      "study.yaml:2:10 (machine): machine 'three-socket': unknown machine preset 'three-socket'",
    ],
    [
      'an unknown operation',
      BASE.replace('operation: test-op', 'operation: test-opp'),
      "study.yaml:4:12 (operation): unknown operation 'test-opp' (did you mean 'test-op'?)",
    ],
    [
      'an unknown algorithm',
      BASE.replace('  - linear', '  - liner'),
      "study.yaml:6:5 (algorithms[0]): unknown test-op algorithm 'liner' (did you mean 'linear'?); test-op algorithms: linear, tree",
    ],
    [
      'an algorithm of another operation',
      BASE.replace('  - linear', '  - test-ring:ring'),
      "study.yaml:6:5 (algorithms[0]): algorithm 'test-ring:ring' belongs to operation 'test-ring', but this scenario's operation is 'test-op'",
    ],
    ['a short name of another operation', BASE.replace('  - linear', '  - ring'), '(it exists for test-ring)'],
    [
      'an unknown parameter',
      BASE.replace('  - linear', '  - { name: linear, params: { segmnt: 1KiB } }'),
      "study.yaml:6:31 (algorithms[0].params.segmnt): unknown key 'segmnt' in the parameters of test-op:linear (did you mean 'segment'?)",
    ],
    [
      'a parameter for an algorithm without any',
      BASE.replace('  - { name: tree, label: binomial }', '  - { name: tree, params: { depth: 2 } }'),
      "study.yaml:7:29 (algorithms[1].params.depth): unknown key 'depth' in the parameters of test-op:tree; known keys: shm, single, singleThreshold, eagerLimit, lmt, lmtChunk, lmtSlots, lmtBuffer, nemesisSideNs, smFragment, smPipelineDepth, smFastBox, regcache, regcacheCapacity",
    ],
    [
      'an sm BTL option over Nemesis',
      BASE.replace('  - linear', '  - { name: linear, params: { smPipelineDepth: 8 } }'),
      'study.yaml:6:48 (algorithms[0].params.smPipelineDepth): smPipelineDepth configures Open MPI\'s sm BTL, but shm is "nemesis"; add shm: sm',
    ],
    [
      'an XPMEM option for an algorithm that never calls XPMEM',
      BASE.replace('  - linear', '  - { name: linear, params: { regcache: false } }'),
      'study.yaml:6:41 (algorithms[0].params.regcache): regcache configures XPMEM, but test-op:linear never calls XPMEM with these parameters and single is "none"; add single: xpmem or leave it out',
    ],
    [
      'an XPMEM option beside another single-copy mechanism',
      BASE.replace('  - linear', '  - { name: linear, params: { single: cma, regcacheCapacity: 64 } }'),
      '(algorithms[0].params.regcacheCapacity): regcacheCapacity configures XPMEM, but test-op:linear never calls XPMEM with these parameters and single is "cma"',
    ],
    [
      'an sm BTL fragment too small for ob1 header and one byte',
      BASE.replace('  - linear', '  - { name: linear, params: { shm: sm, smFragment: 32 } }'),
      "study.yaml:6:52 (algorithms[0].params.smFragment): parameter 'smFragment' of test-op:linear must be at least 33B, got 32B",
    ],
    [
      'a segment of 0',
      BASE.replace('  - linear', '  - { name: linear, params: { segment: 0 } }'),
      "study.yaml:6:40 (algorithms[0].params.segment): parameter 'segment' of test-op:linear must be at least 1B, got 0B",
    ],
    [
      'a size parameter that is not a size',
      BASE.replace('  - linear', '  - { name: linear, params: { segment: true } }'),
      "parameter 'segment' of test-op:linear must be a size such as 256KiB, got true",
    ],
    [
      'a threshold that is neither a size nor its keyword',
      BASE.replace('  - linear', '  - { name: linear, params: { singleThreshold: rendevous } }'),
      "parameter 'singleThreshold' of test-op:linear: 'rendevous' is not a size (expected e.g. 4096, 64KiB, 1.5MiB); give a size or 'rendezvous'",
    ],
    [
      'an integer parameter given a fraction',
      BASE.replace('  - linear', '  - { name: linear, params: { depth: 1.5 } }'),
      "(algorithms[0].params.depth): parameter 'depth' of test-op:linear must be an integer, got 1.5",
    ],
    [
      'an integer parameter below its minimum',
      BASE.replace('  - linear', '  - { name: linear, params: { depth: 0 } }'),
      'must be at least 1, got 0',
    ],
    [
      'a choice parameter off the list',
      BASE.replace('  - linear', '  - { name: linear, params: { direction: reed } }'),
      "must be one of read, write, got 'reed' (did you mean 'read'?)",
    ],
    [
      'a boolean parameter given a string',
      BASE.replace('  - linear', '  - { name: linear, params: { async: yes } }'),
      "parameter 'async' of test-op:linear must be true or false, got 'yes'",
    ],
    [
      'a duplicate label',
      BASE.replace('{ name: tree, label: binomial }', '{ name: tree, label: linear }'),
      "study.yaml:7:5 (algorithms[1]): two algorithms have the label 'linear'",
    ],
    [
      'root outside the communicator',
      `${BASE}root: 4\n`,
      'study.yaml:9:7 (root): root 4 is outside the communicator of 4 ranks (0..3)',
    ],
    [
      'root on an operation without one',
      `${BASE.replace('test-op', 'test-ring').replace('  - linear\n  - { name: tree, label: binomial }', '  - ring')}root: 0\n`,
      "(root): operation 'test-ring' has no root",
    ],
    ['a missing field', BASE.replace('sizes: 1KiB..4KiB\n', ''), "study.yaml:1:1: the scenario needs 'sizes'"],
    ['a missing machine', BASE.replace('machine: two-socket\n', ''), "the scenario needs 'machine'"],
    [
      'an unknown baseline',
      `${BASE}baseline: binomal\n`,
      "study.yaml:9:11 (baseline): baseline 'binomal' is not one of the algorithms (did you mean 'binomial'?)",
    ],
    [
      'a sweep with no axis',
      `${BASE}sweep: {}\n`,
      'study.yaml:9:8 (sweep): sweep names no axis: give a key with its list of values, or leave sweep out',
    ],
    [
      'a baseline naming an algorithm listed twice',
      `${BASE.replace('  - linear\n', '  - { name: tree, label: tree-a }\n')}baseline: tree\n`,
      "study.yaml:9:11 (baseline): baseline 'tree' names 2 algorithms (tree-a, binomial): give one's label",
    ],
    ['a bad cache mode', `${BASE}cache: cold\n`, "(cache): cache must be 'on' or 'off', got 'cold'"],
    [
      'a value both fixed and swept',
      `${BASE}sweep:\n  ranks: [2, 4]\n`,
      "study.yaml:3:8 (ranks): 'ranks' is given both here and under sweep; keep one",
    ],
    [
      'an unknown sweep axis',
      `${BASE}sweep:\n  cores: [2, 4]\n`,
      "study.yaml:10:3 (sweep.cores): unknown key 'cores' in sweep",
    ],
    [
      'an unknown preset in a machine sweep',
      `${BASE.replace('machine: two-socket\nranks: 4\n', 'ranks: 8\n')}sweep:\n  machine: [two-socket, tiny]\n`,
      "study.yaml:9:25 (sweep.machine[1]): machine 'tiny': unknown machine preset 'tiny'",
    ],
    [
      'a swept rank count that does not fit',
      `${BASE.replace('ranks: 4\n', '')}sweep:\n  ranks: [4, 16]\n`,
      "study.yaml:9:14 (sweep.ranks[1]): 16 ranks do not fit on machine 'two-socket', which has 8 cores",
    ],
    ['an empty document', '', 'study.yaml:1:1: the scenario is empty'],
    [
      'a document that is a list',
      '- a\n- b\n',
      'study.yaml:1:1: the scenario must be a mapping (key: value), got a list',
    ],
    ['a duplicate key', `${BASE}ranks: 5\n`, 'study.yaml:9:1 (ranks): YAML syntax error: Map keys must be unique'],
    [
      'two documents',
      `${BASE}---\nname: u\n`,
      "study.yaml:9:1: YAML syntax error: a second document starts here ('---'): a file holds one document",
    ],
    [
      'an iteration count with extra zeros',
      `${BASE}iterations: 1000000000\n`,
      'study.yaml:9:13 (iterations): iterations must be at most 1,000,000, got 1000000000',
    ],
    [
      'a warm-up count with extra zeros',
      `${BASE}warmup: 2000000\n`,
      'study.yaml:9:9 (warmup): warmup must be at most 1,000,000, got 2000000',
    ],
    [
      'an iteration count that is not a number',
      `${BASE}iterations: .nan\n`,
      "(iterations): iterations must be a number, got '.nan', which is not a number",
    ],
    [
      'a seed swept twice',
      `${BASE}sweep:\n  seed: [1, 1]\n`,
      'study.yaml:10:13 (sweep.seed[1]): seed 1 is listed twice',
    ],
    [
      'a rank count swept twice',
      `${BASE.replace('ranks: 4\n', '')}sweep:\n  ranks: [4, 4]\n`,
      'study.yaml:9:14 (sweep.ranks[1]): ranks 4 is listed twice',
    ],
    [
      'a machine swept twice',
      `${BASE.replace('machine: two-socket\n', '')}sweep:\n  machine: [two-socket, two-socket]\n`,
      'study.yaml:9:25 (sweep.machine[1]): machine two-socket is listed twice',
    ],
    [
      'a placement swept twice, once with its threads spelled out',
      `${BASE}sweep:\n  placement: [[0, 1, 2, 3], [0, { core: 1, thread: 0 }, 2, 3]]\n`,
      '(sweep.placement[1]): placement [0, 1, 2, 3] is listed twice',
    ],
  ];

  it.each(cases)('%s', (_, text, message) => {
    const e = errorOf(text);
    expect(e.message).toContain(message);
  });

  it('names the machine when a swept machine cannot hold the ranks', () => {
    const two = fakeMachine('small', 1, 2);
    const e = errorOf(`${BASE.replace('machine: two-socket\n', '')}sweep:\n  machine: [two-socket, small]\n`, {
      resolveMachine: (ref) => (ref === 'small' ? two : MACHINES['two-socket']),
    });
    expect(e.message).toBe(
      "study.yaml:2:8 (ranks): on machine 'small': 4 ranks do not fit on machine 'small', which has 2 cores",
    );
  });

  it('keeps the location in structured form', () => {
    const e = errorOf(BASE.replace('ranks: 4', 'ranks: 9'));
    expect(e.location).toEqual({ file: 'study.yaml', line: 3, column: 8, field: 'ranks' });
  });

  it('names --machine when the override is wrong', () => {
    expect(errorOf(BASE, { machineOverride: 'nowhere' }).message).toBe(
      "--machine: machine 'nowhere': unknown machine preset 'nowhere'",
    );
  });

  it('wraps anything the machine resolver throws', () => {
    const e = errorOf(BASE, {
      resolveMachine: () => {
        throw new Error('EACCES');
      },
    });
    expect(e.message).toBe("study.yaml:2:10 (machine): machine 'two-socket': EACCES");
  });

  it('reports a missing scenario file', () => {
    expect(() =>
      loadScenarioFile('/nonexistent/x.yaml', { resolveMachine: fakeResolver, catalogue: fakeCatalogue }),
    ).toThrow(new InputError('cannot read scenario file: no such file', { file: '/nonexistent/x.yaml' }));
  });
});
