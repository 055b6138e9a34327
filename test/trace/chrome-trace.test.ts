// The trace `intranode run --trace` writes: valid JSON in the Trace Event Format, every event with
// the fields its phase needs, the complete events of one thread nested or apart, and the steps
// and their durations those of the run itself.
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../algorithms/catalogue.ts';
import { resolveMachine } from '../../hardware/index.ts';
import { expandScenario } from '../../scenarios/expand.ts';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { simulatePointTraced } from '../../scenarios/simulate-point.ts';
import { ChromeTraceWriter, type ChromeEvent } from '../../scenarios/trace/chrome-trace.ts';
import { runCli } from '../scenarios/run-cli.ts';

const SCENARIO = `name: trace
machine: dancer
ranks: 4
placement: scatter
operation: bcast
algorithms: [binomial, knem-linear, xpmem]
sizes: [64KiB, 1MiB]
iterations: 2
`;

const dir = mkdtempSync(join(tmpdir(), 'intranode-trace-'));
writeFileSync(join(dir, 's.yaml'), SCENARIO);

function points() {
  const s = loadScenarioText(SCENARIO, {
    file: 's.yaml',
    catalogue,
    resolveMachine: (ref, baseDir) => resolveMachine(ref, { baseDir }),
  });
  return expandScenario(s).flatMap((t) => t.rows.flatMap((r) => r.cells.map((c) => c.point)));
}

/** Checks what the Trace Event Format asks of each phase; returns the events. */
function checkFields(events: ChromeEvent[]): void {
  for (const e of events) {
    expect(typeof e.name).toBe('string');
    expect(Number.isInteger(e.pid)).toBe(true);
    if (e.ph === 'X') {
      expect(Number.isInteger(e.tid)).toBe(true);
      expect(Number.isFinite(e.ts)).toBe(true);
      expect(e.dur).toBeGreaterThanOrEqual(0);
      expect(typeof e.cat).toBe('string');
    } else if (e.ph === 'C') {
      expect(Number.isFinite(e.ts)).toBe(true);
      const values = Object.values(e.args ?? {});
      expect(values.length).toBeGreaterThan(0);
      for (const v of values) expect(typeof v).toBe('number');
    } else {
      expect(e.ph).toBe('M');
      expect(e.args).toHaveProperty(e.name.endsWith('sort_index') ? 'sort_index' : 'name');
      if (e.name.startsWith('thread')) expect(Number.isInteger(e.tid)).toBe(true);
    }
  }
}

/** On each thread, a complete event either lies inside the one open before it or starts after it ends. */
function checkNesting(events: ChromeEvent[]): void {
  const byThread = new Map<string, ChromeEvent[]>();
  for (const e of events.filter((x) => x.ph === 'X')) {
    const key = `${e.pid}/${e.tid}`;
    byThread.set(key, [...(byThread.get(key) ?? []), e]);
  }
  // In whole nanoseconds, as the file gives them, so the comparison is exact.
  const ns = (us: number) => Math.round(us * 1000);
  for (const list of byThread.values()) {
    list.sort((a, b) => a.ts! - b.ts! || b.dur! - a.dur!);
    const open: number[] = [];
    for (const e of list) {
      while (open.length > 0 && open[open.length - 1] <= ns(e.ts!)) open.pop();
      if (open.length > 0) expect(ns(e.ts!) + ns(e.dur!)).toBeLessThanOrEqual(open[open.length - 1]);
      open.push(ns(e.ts!) + ns(e.dur!));
    }
  }
}

describe('Chrome trace export', () => {
  it('holds every step of the run with its duration, and loads as counters', () => {
    let text = '';
    const writer = new ChromeTraceWriter((t) => void (text += t));
    // Dancer has no XPMEM: those points cannot run (the CLI test below covers them).
    const runnable = points().filter((p) => !p.algorithm.endsWith(':xpmem'));
    const runs = runnable.map((point, i) => {
      const { outcome } = simulatePointTraced(point);
      writer.point(i, { point, label: `point ${i}`, events: outcome.events, loads: outcome.loads ?? [] });
      return outcome;
    });
    writer.end();
    const doc = JSON.parse(text) as { traceEvents: ChromeEvent[] };
    checkFields(doc.traceEvents);
    checkNesting(doc.traceEvents);
    runs.forEach((outcome, i) => {
      const mine = doc.traceEvents.filter((e) => e.pid === i + 1);
      const steps = mine.filter((e) => e.ph === 'X');
      expect(steps).toHaveLength(outcome.events.length);
      expect(steps.length).toBeGreaterThan(0);
      // Rank-time per kind, as the breakdown counts it, from the trace's microseconds.
      // Each step's ends are rounded to the nanosecond: at most 1 ns off per step.
      const perKind: Record<string, { ns: number; steps: number }> = {};
      for (const e of steps) {
        const k = (perKind[e.cat!] ??= { ns: 0, steps: 0 });
        k.ns += e.dur! * 1000;
        k.steps++;
      }
      expect(Object.keys(perKind).sort()).toEqual(Object.keys(outcome.totals).sort());
      for (const [kind, ns] of Object.entries(outcome.totals))
        expect(Math.abs(perKind[kind].ns - ns)).toBeLessThanOrEqual(perKind[kind].steps + 1e-6);
      const counters = mine.filter((e) => e.ph === 'C');
      expect(counters.length).toBeGreaterThan(0);
      for (const c of counters) expect(c.args!.utilisation).toBeLessThanOrEqual(1 + 1e-9);
      // One thread name per rank at least, each rank's first lane named by its NUMA node and core.
      const threads = mine.filter((e) => e.name === 'thread_name').map((e) => String(e.args!.name));
      for (let rank = 0; rank < 4; rank++) expect(threads.some((n) => n.endsWith(`rank ${rank}`))).toBe(true);
    });
  });

  it('keeps concurrent steps of one rank on separate threads', () => {
    let text = '';
    const writer = new ChromeTraceWriter((t) => void (text += t));
    const point = points()[0];
    const events = [
      { rank: 0, kind: 'copy', label: 'a', start: 0, end: 100, bytes: 8 },
      { rank: 0, kind: 'poll', label: 'b', start: 50, end: 150, bytes: 0 },
      { rank: 0, kind: 'wait', label: 'c', start: 150, end: 160, bytes: 0 },
    ];
    writer.point(0, { point, label: 'x', events, loads: [] });
    writer.end();
    const steps = (JSON.parse(text) as { traceEvents: ChromeEvent[] }).traceEvents.filter((e) => e.ph === 'X');
    const tid = Object.fromEntries(steps.map((e) => [e.name, e.tid]));
    expect(tid.a).not.toBe(tid.b);
    expect(tid.c).toBe(tid.a);
  });
});

describe('intranode run --trace', () => {
  it('writes one process per sweep point and prints the same report as without it', async () => {
    const plain = await runCli(['run', 's.yaml', '--json'], { cwd: dir, now: () => 0 });
    const traced = await runCli(['run', 's.yaml', '--json', '--trace', 'out.json'], { cwd: dir, now: () => 0 });
    expect(traced).toEqual(plain);
    const doc = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as { traceEvents: ChromeEvent[] };
    const names = doc.traceEvents.filter((e) => e.name === 'process_name').map((e) => String(e.args!.name));
    expect(names).toHaveLength(6);
    // Dancer has no XPMEM: that algorithm's points are n/a, their processes named so and empty.
    expect(names.filter((n) => n.endsWith('(n/a)'))).toHaveLength(2);
    checkFields(doc.traceEvents);
    checkNesting(doc.traceEvents);
    const again = await runCli(['run', 's.yaml', '--json', '--trace', 'again.json'], { cwd: dir, now: () => 0 });
    expect(again.code).toBe(0);
    expect(readFileSync(join(dir, 'again.json'), 'utf8')).toBe(readFileSync(join(dir, 'out.json'), 'utf8'));
  });

  it("names every point apart from the sweep's others: column label, size, machine, ranks and each swept axis", async () => {
    writeFileSync(
      join(dir, 'axes.yaml'),
      [
        'name: axes',
        'machine: dancer',
        'ranks: 2',
        'operation: bcast',
        'algorithms: [binomial, { name: binomial, label: binomial-2 }]',
        'sizes: [4KiB]',
        'iterations: 1',
        'warmup: 0',
        'sweep:',
        '  placement: [compact, scatter]',
        '  seed: [a, b]',
        '',
      ].join('\n'),
    );
    expect((await runCli(['run', 'axes.yaml', '--trace', 'axes.json'], { cwd: dir })).code).toBe(0);
    const doc = JSON.parse(readFileSync(join(dir, 'axes.json'), 'utf8')) as { traceEvents: ChromeEvent[] };
    const names = doc.traceEvents.filter((e) => e.name === 'process_name').map((e) => String(e.args!.name));
    expect(names.slice(0, 3)).toEqual([
      'point 0: binomial 4KiB on dancer, 2 ranks, placement compact, seed a',
      'point 1: binomial-2 4KiB on dancer, 2 ranks, placement compact, seed a',
      'point 2: binomial 4KiB on dancer, 2 ranks, placement compact, seed b',
    ]);
    expect(new Set(names.map((n) => n.replace(/^point \d+: /, ''))).size).toBe(8);
  });

  it('refuses --trace with --shard or several jobs, and a file it cannot write', async () => {
    const both = await runCli(['run', 's.yaml', '--trace', 't.json', '--shard', '1/2'], { cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--trace');
    const jobs = await runCli(['run', 's.yaml', '--trace', 't.json', '--jobs', '2'], { cwd: dir });
    expect(jobs.code).toBe(2);
    expect(jobs.stderr).toContain('--jobs');
    const bad = await runCli(['run', 's.yaml', '--trace', join(dir, 'no', 'such', 'dir.json')], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('cannot write the trace');
  });

  it('never writes over the scenario it runs, and leaves an earlier trace whole when the run fails', async () => {
    const scenario = readFileSync(join(dir, 's.yaml'), 'utf8');
    const onInput = await runCli(['run', 's.yaml', '--trace', 's.yaml'], { cwd: dir });
    expect(onInput.code).toBe(1);
    expect(onInput.stderr).toContain('(--trace): the trace would overwrite');
    expect(readFileSync(join(dir, 's.yaml'), 'utf8')).toBe(scenario);
    // A run that fails part-way (--strict, an algorithm the machine cannot run) leaves FILE as it was.
    writeFileSync(join(dir, 'keep.json'), '{"kept": true}');
    writeFileSync(join(dir, 'na.yaml'), scenario.replace(/algorithms:.*/, 'algorithms: [basic, cma-linear]'));
    const failed = await runCli(['run', 'na.yaml', '--strict', '--trace', 'keep.json'], { cwd: dir });
    expect(failed.code).toBe(1);
    expect(readFileSync(join(dir, 'keep.json'), 'utf8')).toBe('{"kept": true}');
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('writes through a symbolic link and into a pipe, and never puts a regular file in their place', async () => {
    const plain = await runCli(['run', 's.yaml', '--trace', 'plain.json'], { cwd: dir, now: () => 0 });
    expect(plain.code).toBe(0);
    const want = readFileSync(join(dir, 'plain.json'), 'utf8');
    // A link: the file it names gets the trace, and the link stays a link.
    mkdirSync(join(dir, 'real'));
    symlinkSync('real/t.json', join(dir, 'link.json'));
    expect((await runCli(['run', 's.yaml', '--trace', 'link.json'], { cwd: dir, now: () => 0 })).code).toBe(0);
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real', 't.json'), 'utf8')).toBe(want);
    // A FIFO, read by another process: it gets the trace and stays a FIFO.
    const fifo = join(dir, 'fifo');
    if (spawnSync('mkfifo', [fifo]).status === 0) {
      const reader = spawn('sh', ['-c', `cat "${fifo}" > "${join(dir, 'fifo.out')}"`]);
      const read = new Promise((done) => reader.on('exit', done));
      expect((await runCli(['run', 's.yaml', '--trace', 'fifo'], { cwd: dir, now: () => 0 })).code).toBe(0);
      await read;
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      expect(readFileSync(join(dir, 'fifo.out'), 'utf8')).toBe(want);
    }
    // A device that is full (through a link, so that a regression replaces only the link): the
    // write's failure in words, no stack trace.
    symlinkSync('/dev/full', join(dir, 'full.json'));
    const full = await runCli(['run', 's.yaml', '--trace', 'full.json'], { cwd: dir });
    expect(full.code).toBe(1);
    expect(full.stderr).toBe(
      `intranode: ${join(dir, 'full.json')} (--trace): cannot write the trace: no space left on the device\n`,
    );
    expect(lstatSync(join(dir, 'full.json')).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('removes what a trace stopped by a signal on this host left beside the same file, and nothing else', async () => {
    // Hidden files of a process that no longer runs (no process has this id): this host's for this
    // file, another file's, and another host's (a container or a machine sharing the folder).
    const stale = `.stopped.json.${hostname()}.2147483647.partial`;
    const others = [`.other.json.${hostname()}.2147483647.partial`, '.stopped.json.elsewhere.2147483647.partial'];
    for (const name of [stale, ...others]) writeFileSync(join(dir, name), '[');
    // A folder of the same form is not a file a trace left.
    mkdirSync(join(dir, `.stopped.json.${hostname()}.2147483646.partial`));
    expect((await runCli(['run', 's.yaml', '--trace', 'stopped.json'], { cwd: dir, now: () => 0 })).code).toBe(0);
    const left = readdirSync(dir);
    expect(left).not.toContain(stale);
    for (const name of others) expect(left).toContain(name);
    expect(left).toContain(`.stopped.json.${hostname()}.2147483646.partial`);
  });

  it('follows links as the kernel does: a chain, and one to nothing yet through a linked folder', async () => {
    const want = (await runCli(['run', 's.yaml', '--trace', 'plain2.json'], { cwd: dir, now: () => 0 })).code;
    expect(want).toBe(0);
    const text = readFileSync(join(dir, 'plain2.json'), 'utf8');
    // chain.json -> hop.json -> chained/x.json: the last gets the trace, both links stay links.
    mkdirSync(join(dir, 'chained'));
    symlinkSync('chained/x.json', join(dir, 'hop.json'));
    symlinkSync('hop.json', join(dir, 'chain.json'));
    expect((await runCli(['run', 's.yaml', '--trace', 'chain.json'], { cwd: dir, now: () => 0 })).code).toBe(0);
    expect(lstatSync(join(dir, 'hop.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'chained', 'x.json'), 'utf8')).toBe(text);
    // via/t.json, where via -> deep/a/real, is a link to ../../t-target.json, which from where the
    // link really sits is deep/t-target.json (from the path as typed it would be t-target.json here).
    mkdirSync(join(dir, 'deep', 'a', 'real'), { recursive: true });
    symlinkSync('deep/a/real', join(dir, 'via'));
    symlinkSync('../../t-target.json', join(dir, 'deep', 'a', 'real', 't.json'));
    writeFileSync(join(dir, 't-target.json'), 'unrelated');
    expect((await runCli(['run', 's.yaml', '--trace', 'via/t.json'], { cwd: dir, now: () => 0 })).code).toBe(0);
    expect(readFileSync(join(dir, 't-target.json'), 'utf8')).toBe('unrelated');
    expect(readFileSync(join(dir, 'deep', 't-target.json'), 'utf8')).toBe(text);
  });
});
