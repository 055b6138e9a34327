import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../common/input-error.ts';
import type { CliEnv } from '../../scenarios/cli/env.ts';
import { parseArgs } from '../../scenarios/cli/args.ts';
import type { PointRunner } from '../../scenarios/point.ts';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { formatTableReport } from '../../scenarios/report/table.ts';
import { runScenario } from '../../scenarios/run.ts';
import { fakeResolver, fakeRunner, fakeCatalogue } from './fixtures.ts';
import { runCli } from './run-cli.ts';

const SCENARIO = `name: cli
machine: two-socket
ranks: 4
operation: test-op
algorithms: [linear, tree]
sizes: [1KiB, 64KiB]
`;

const dir = mkdtempSync(join(tmpdir(), 'intranode-cli-'));
const file = join(dir, 'cli.yaml');
writeFileSync(file, SCENARIO);
const broken = join(dir, 'broken.yaml');
writeFileSync(broken, SCENARIO.replace('ranks: 4', 'ranks: 40'));

function cli(argv: string[], env: Partial<CliEnv> = {}) {
  return runCli(argv, {
    now: () => 0,
    cwd: dir,
    loadAlgorithms: () => Promise.resolve(fakeCatalogue),
    loadRunner: () => Promise.resolve(fakeRunner),
    loadHardware: async () => ({
      resolveMachine: (ref, opts) => fakeResolver(ref, opts?.baseDir ?? ''),
      renderMachine: (spec) => `machine ${spec.name}: ${spec.cores.length} cores`,
    }),
    listPresets: async () => [
      { name: 'two-socket', description: 'Two packages of four cores' },
      { name: 'sub-numa', description: 'One package, two NUMA nodes' },
    ],
    ...env,
  });
}

describe('intranode run', () => {
  it('prints the table report', async () => {
    const r = await cli(['run', file]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const expected = formatTableReport(
      runScenario(
        loadScenarioText(SCENARIO, { file, resolveMachine: fakeResolver, catalogue: fakeCatalogue }),
        fakeRunner,
      ),
    );
    expect(r.stdout).toBe(expected);
  });

  it('prints JSON, CSV and the breakdown on request', async () => {
    const json = await cli(['run', file, '--json']);
    expect(JSON.parse(json.stdout).tables[0].rows).toHaveLength(2);
    const csv = await cli(['run', '--csv', '--breakdown', file]);
    expect(csv.stdout.split('\n')[0]).toContain(',share_copy,');
    expect(csv.stdout.trimEnd().split('\n')).toHaveLength(5);
    const table = await cli(['run', file, '--breakdown']);
    expect(table.stdout).toContain('# Breakdown');
  });

  it('passes --seed and --machine through to every point', async () => {
    const seen = new Set<string>();
    const runner: PointRunner = (p) => (seen.add(`${p.seed}@${p.machine.name}`), fakeRunner(p));
    const r = await cli(['run', file, '--seed=7', '--machine', 'sub-numa'], { loadRunner: async () => runner });
    expect(r.code).toBe(0);
    expect([...seen]).toEqual(['7@sub-numa']);
    expect(r.stdout).toContain('# Machine: sub-numa (1 package, 2 NUMA nodes, 8 cores)');
  });

  it('passes --trains to every point, and only then', async () => {
    const seen = new Set<string>();
    const runner: PointRunner = (p) => (seen.add(String(p.trains)), fakeRunner(p));
    expect((await cli(['run', file, '--trains'], { loadRunner: async () => runner })).code).toBe(0);
    expect([...seen]).toEqual(['true']);
    seen.clear();
    expect((await cli(['run', file], { loadRunner: async () => runner })).code).toBe(0);
    expect([...seen]).toEqual(['undefined']);
  });

  it('reports an invalid scenario on one line with its location, exit 1', async () => {
    const r = await cli(['run', broken]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `intranode: ${broken}:3:8 (ranks): 40 ranks do not fit on machine 'two-socket', which has 8 cores\n`,
    );
  });

  it('reports a missing file, exit 1', async () => {
    const r = await cli(['run', join(dir, 'nope.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nope.yaml: cannot read scenario file: no such file');
  });

  it('runs the built-in scenario without a file, failing cleanly while its algorithms are missing', async () => {
    const r = await cli(['run']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^intranode: .*default\.yaml:\d+:\d+ \(operation\): unknown operation 'bcast'/);
    expect(r.stderr.split('\n')).toHaveLength(2);
  });

  it('treats an InputError from the simulator as invalid input and anything else as an internal error', async () => {
    const input = await cli(['run', file], {
      loadRunner: async () => () => {
        throw new InputError('machine has no KNEM');
      },
    });
    expect(input).toMatchObject({ code: 1, stderr: 'intranode: machine has no KNEM\n' });
    const internal = await cli(['run', file], {
      loadRunner: async () => () => {
        throw new Error('boom');
      },
    });
    expect(internal.code).toBe(3);
    expect(internal.stderr).toContain('internal error: Error: boom');
  });

  it('shows a progress bar on a terminal once the run takes more than a second', async () => {
    let clock = 0;
    const slow = await cli(['run', file], { stderrIsTTY: true, now: () => (clock += 600) });
    expect(slow.code).toBe(0);
    expect(slow.stderr).toContain('] 4/4 points');
    const piped = await cli(['run', file], { stderrIsTTY: false, now: () => (clock += 600) });
    expect(piped.stderr).toBe('');
  });
});

describe('command-line errors exit 2', () => {
  it.each([
    [[], 'missing command'],
    [['machins'], "unknown command 'machins' (did you mean 'machines'?)"],
    [['run', file, '--jsno'], "unknown option '--jsno' (did you mean '--json'?)"],
    [['run', file, '--json', '--csv'], '--json and --csv cannot be used together'],
    [['run', file, '--machine'], '--machine needs a value'],
    [['run', file, '--breakdown=yes'], '--breakdown takes no value'],
    // The next flag is not a value: `--trace --json` would write a file named --json.
    [['run', file, '--trace', '--json'], '--trace needs a value'],
    [['run', file, '--seed', '--strict', '--json'], '--seed needs a value'],
    [['run', file, '--seed', '-5'], "--seed -5: a value starting with '-' is written --seed=-5"],
    // Where a flag's value goes, -h is that flag without its value, not a request for help.
    [['run', file, '--machine', '-h'], "--machine -h: a value starting with '-' is written --machine=-h"],
    [['run', file, '--machine', 'dancer', '--machine', 'zoot'], '--machine is given twice'],
    [['run', file, '--json', '--json'], '--json is given twice'],
    [['slurm', file, '--shards', '2', '--shards', '3'], '--shards is given twice'],
    [['run', file, file], "'run' takes one scenario file"],
    [['machine'], "'machine' needs a subcommand"],
    [['machine', 'list'], "unknown subcommand 'machine list'"],
    [['machine', 'show'], "'machine show' needs a preset name"],
    [['machines', 'extra'], "'machines' takes options only, got: extra"],
    [['algorithms', '--all'], "unknown option '--all'"],
    [['--verbose'], "unknown option '--verbose'"],
  ])('%j', async (argv, message) => {
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`intranode: ${message}`);
    expect(r.stderr).toContain("Try 'intranode --help'.");
  });
});

describe('information commands', () => {
  it('--help and --version', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('intranode run [FILE]');
    expect((await cli(['run', '-h'])).stdout).toBe(help.stdout);
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: 'intranode 0.1.0\n', stderr: '' });
  });

  it('machines lists the presets in aligned columns', async () => {
    expect((await cli(['machines'])).stdout).toBe(
      '# Preset    Description\ntwo-socket  Two packages of four cores\nsub-numa    One package, two NUMA nodes\n',
    );
  });

  it('machine show renders a machine, or says it does not exist', async () => {
    expect(await cli(['machine', 'show', 'sub-numa'])).toEqual({
      code: 0,
      stdout: 'machine sub-numa: 8 cores\n',
      stderr: '',
    });
    const missing = await cli(['machine', 'show', 'nope']);
    expect(missing).toEqual({ code: 1, stdout: '', stderr: "intranode: unknown machine preset 'nope'\n" });
  });

  it('algorithms lists operations, algorithms and parameters one line each', async () => {
    const r = await cli(['algorithms', 'test-op']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`test-op (rooted): A rooted test operation
  linear: Root talks to every rank
    segment (bytes, default 64KiB): pipeline segment
    depth (integer, default 2, min 1): tree depth
    direction (choice, default read, one of read|write): copy direction
    async (boolean, default false): asynchronous copies
    factor (number, default 1.5): a real-valued knob
  tree: Binomial tree

transport parameters, taken by every algorithm that reaches the transport (point-to-point messages, XPMEM):
    shm (choice, default nemesis, one of nemesis|sm): shared-memory double-copy protocol of point-to-point messages (MPICH2 Nemesis or Open MPI sm BTL)
    single (choice, default none, one of none|knem|cma|xpmem|limic): single-copy mechanism point-to-point uses for large messages
    singleThreshold (bytes, default rendezvous, min 0B): messages of at least this size use the single-copy mechanism; 'rendezvous': every message above the double copy's eager limit, as the libraries do
    eagerLimit (bytes, default 65440B, min 0B): Nemesis: largest message sent eagerly through cells, as MPICH's MPIR_CVAR_NEMESIS_SHM_EAGER_MAX_SZ (not with shm: sm)
    lmt (boolean, default true): Nemesis: larger messages through the shared-memory LMT pipeline (true) or ch3's rendezvous through cells (false; not with a single-copy mechanism)
    lmtChunk (bytes, default 32KiB, min 1B): Nemesis: slot of the LMT copy buffer, what one pipeline step copies (16 KiB for messages up to 128 KiB) (MPICH2 MPID_NEM_COPY_BUF_LEN)
    lmtSlots (integer, default 8, min 1, max 65536): Nemesis: slots of the LMT copy buffer, how far the sender may run ahead (MPICH2 NUM_BUFS)
    lmtBuffer (choice, default pair, one of pair|direction): Nemesis: one LMT copy buffer per pair of processes, one transfer at a time either way ('pair', MPICH2's), or one per direction ('direction', the native backend's double copy)
    nemesisSideNs (number, default 50, min 0): Nemesis: the library's work on each side of a packet, in ns (building and posting it; matching and completing it); 0 for a program with no MPI library around its cells, as the native backend's double copy
    smFragment (bytes, default 32KiB, min 33B): sm BTL: fragment of the rendezvous pipeline, as Open MPI's btl_sm_max_send_size (only with shm: sm)
    smPipelineDepth (integer, default 3, min 1): sm BTL: fragments of a copy-in/out rendezvous in flight, as Open MPI's pml_ob1_send_pipeline_depth (only with shm: sm)
    smFastBox (bytes, default 0B, min 0B, max 4KiB): sm BTL: largest eager message, ob1's 14-byte match header included, sent through a per-peer fast box once 16 fragments have gone to that peer; 0 for none (Open MPI 1.x's sm BTL), 270B for Open MPI 1.8-4.1's vader BTL (only with shm: sm)
    regcache (boolean, default true): XPMEM registration cache on or off (only where XPMEM is called: by the algorithm, or single: xpmem)
    regcacheCapacity (integer, default 4096, min 1): XPMEM registration cache entries, all peers together, before FIFO eviction (where regcache is taken)
    rails (choice, default throughput, one of even|throughput|numa|nearest|share): how a message between hosts is split across the NICs: even, by NIC bandwidth, by the throughput each NIC offers from the process's NUMA node, only on the NICs of its own NUMA node (evenly when none is), or railShare on the first
    railShare (number, default 0.5, min 0, max 1): with rails: share, the share of each message between hosts sent on the first NIC
`);
    const all = await cli(['algorithms']);
    expect(all.stdout).toContain('test-op (rooted)');
    expect(all.stdout).toContain('test-ring: A test operation without root\n  ring: Ring\n');
  });

  it('algorithms names a misspelt operation', async () => {
    const r = await cli(['algorithms', 'test-opp']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown operation 'test-opp' (did you mean 'test-op'?)");
  });
});

describe('flags parsed into the command', () => {
  it.each([
    [['run', file, '--format', 'imb'], { format: 'imb' }],
    [['run', file, '--format=csv', '--csv'], { format: 'csv' }],
    [['run', file, '--strict'], { strict: true }],
    [['run', file, '--trains'], { trains: true }],
    [['run', file], { trains: false }],
    [['run', file, '--hwloc-machine', '1'], { hwlocMachine: 1 }],
    [
      ['machine', 'show', 'node.xml', '--hwloc-machine=2'],
      { command: 'machine-show', ref: 'node.xml', hwlocMachine: 2 },
    ],
    [
      ['reproduce', '--fast', '--strict', '--only', '000', '--report=out'],
      { command: 'reproduce', fastOnly: true, strict: true, only: '000', report: 'out', json: false },
    ],
    [
      ['reproduce', '--jobs', '2', '--skip', 'a.yaml,000-x', '--skip=b'],
      { command: 'reproduce', jobs: 2, skip: ['a.yaml', '000-x', 'b'] },
    ],
  ])('%j', (argv, expected) => {
    expect(parseArgs(argv)).toMatchObject(expected);
  });

  it.each([
    [
      ['run', file, '--format', 'imbb'],
      "--format must be one of table, json, csv, imb, got 'imbb' (did you mean 'imb'?)",
    ],
    [['run', file, '--json', '--format', 'imb'], '--json and --format imb cannot be used together'],
    [['run', file, '--hwloc-machine', 'x'], "--hwloc-machine needs a machine number (0, 1, ...), got 'x'"],
    [['run', file, '--strickt'], "unknown option '--strickt' (did you mean '--strict'?)"],
    [
      ['machine', 'show', 'a.xml', '--hwloc-machin'],
      "unknown option '--hwloc-machin' (did you mean '--hwloc-machine'?)",
    ],
    [['run', file, '-j'], "unknown option '-j'"],
    [['reproduce', '--fats'], "unknown option '--fats' (did you mean '--fast'?)"],
    [['reproduce', '--jobs', '0'], "--jobs needs a number of jobs (1, 2, ...), got '0'"],
    [['reproduce', 'extra'], "'reproduce' takes options only, got: extra"],
    [['run', file, '--format', 'imb', '--breakdown'], '--breakdown cannot be used with --format imb'],
    [['run', file, '--memory', '--format', 'imb'], '--memory cannot be used with --format imb'],
    [
      ['run', file, '--shard', '1/2', '--memory'],
      "--shard prints partial results: give --memory to 'intranode merge' instead",
    ],
  ])('%j', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(message);
  });

  it('passes --hwloc-machine to the machine resolver', async () => {
    const seen: unknown[] = [];
    const r = await cli(['machine', 'show', 'node.xml', '--hwloc-machine', '3'], {
      loadHardware: async () => ({
        resolveMachine: (_ref, opts) => (seen.push(opts?.hwlocMachine), fakeResolver('sub-numa', opts?.baseDir ?? '')),
        renderMachine: (spec) => spec.name,
      }),
    });
    expect(r.code).toBe(0);
    expect(seen).toEqual([3]);
  });

  it('refuses --hwloc-machine for a machine shown that is no hwloc file', async () => {
    const r = await cli(['machine', 'show', 'sub-numa', '--hwloc-machine', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "intranode: --hwloc-machine picks a machine of an hwloc XML file, and 'sub-numa' is not one",
    );
  });

  it('refuses --hwloc-machine for a run without an hwloc file, which it would not change', async () => {
    const r = await cli(['run', file, '--hwloc-machine', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'intranode: --hwloc-machine picks a machine of an hwloc XML file, and this run has none (its machines: two-socket)',
    );
  });
});

describe('reports that do not depend on how the run was started', () => {
  it('says in the header when --machine replaced the scenario machine', async () => {
    const r = await cli(['run', file, '--machine', 'sub-numa']);
    expect(r.stdout).toContain(
      "# Machine: sub-numa (1 package, 2 NUMA nodes, 8 cores), from --machine instead of the scenario's two-socket\n",
    );
    expect((await cli(['run', file])).stdout).toContain('# Machine: two-socket (2 packages, 2 NUMA nodes, 8 cores)\n');
  });

  it('gives the same JSON, scenario.file the file name, from any working directory', async () => {
    const here = await cli(['run', 'cli.yaml', '--json']);
    const above = await cli(['run', join(basename(dir), 'cli.yaml'), '--json'], { cwd: dirname(dir) });
    const absolute = await cli(['run', file, '--json'], { cwd: tmpdir() });
    expect(JSON.parse(here.stdout).scenario.file).toBe('cli.yaml');
    expect(above.stdout).toBe(here.stdout);
    expect(absolute.stdout).toBe(here.stdout);
  });
});
