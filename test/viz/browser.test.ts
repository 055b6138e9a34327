// The visualizer end to end in real headless Chromium: `intranode viz` serves the built app, the
// default scenario runs in the worker, and every view shows what the run produced. Screenshots go
// to test/artifacts/ (not committed). The speed figures the page is meant to reach are measured
// and printed, never asserted. Skips, saying why, where /usr/bin/chromium is absent.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ARTIFACTS = join(ROOT, 'test', 'artifacts');
const DEFAULT_SCENARIO = readFileSync(join(ROOT, 'scenarios', 'files', 'default.yaml'), 'utf8');
const present = existsSync(CHROMIUM);
/** hwloc's lstopo makes a synthetic machine of hundreds of cores to upload. */
const lstopo = ['/usr/bin/lstopo', '/usr/bin/lstopo-no-graphics'].find((p) => existsSync(p));
if (!present) console.warn(`viz browser test skipped: ${CHROMIUM} not found (Debian package chromium)`);

let server: ChildProcess | undefined;
let browser: Browser | undefined;
let page: Page;
let url = '';
const consoleErrors: string[] = [];

/** Starts `intranode viz --port 0` and waits for the address it prints. */
function startServer(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'intranode.mjs'), 'viz', '--port', '0'], { cwd: ROOT });
    server = child;
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /serving the visualizer at (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`intranode viz exited with ${code}: ${err}`)));
  });
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `viz-${name}.png`), fullPage: false });
}

async function waitForRun(runsBefore: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const m = (window as unknown as { __viz: { metrics: { runs: number; renderMs?: number } } }).__viz.metrics;
      const idle = !(document.querySelector('button[name=run]') as HTMLButtonElement).disabled;
      return m.runs > n && idle && m.renderMs !== undefined;
    },
    runsBefore,
    { timeout: 45_000 },
  );
}

interface Metrics {
  runs: number;
  progressMessages: number;
  renderMs?: number;
  maxFrameGapMs?: number;
}
const metrics = () => page.evaluate(() => (window as unknown as { __viz: { metrics: Metrics } }).__viz.metrics);

describe.skipIf(!present)(`visualizer in headless Chromium (needs ${CHROMIUM})`, () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    url = await startServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(url);
    await page.waitForSelector('.editor-status.ok', { timeout: 20_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.kill();
  });

  const speed: Record<string, number | undefined> = {};

  it('runs the default scenario: one timeline row per rank, one comparison series per algorithm', async () => {
    await page.click('button[name=run]');
    await waitForRun(0);
    const m = await metrics();
    expect(m.progressMessages).toBeGreaterThan(0);
    speed.renderMs = m.renderMs;
    speed.maxFrameGapDuringRunMs = m.maxFrameGapMs;
    const series = await page.$$eval('svg.comparison-plot g.series[data-side=original]', (gs) =>
      gs.map((g) => g.getAttribute('data-algorithm')),
    );
    expect(series).toEqual(['basic', 'binomial', 'knem-linear']);
    await shot('comparison');
    await page.click('nav.tabs button[data-tab=timeline]');
    const rows = await page.$eval('canvas.timeline-canvas', (c) => Number((c as HTMLCanvasElement).dataset.rows));
    expect(rows).toBe(8);
    expect(
      await page.$eval('canvas.timeline-canvas', (c) => Number((c as HTMLCanvasElement).dataset.steps)),
    ).toBeGreaterThan(0);
    await page.mouse.move(700, 300);
    await shot('timeline');
  });

  it('colours the machine by utilisation and plots the loads', async () => {
    await page.click('nav.tabs button[data-tab=machine]');
    await page.$eval('input[name=time]', (i) => {
      (i as HTMLInputElement).value = '300';
      i.dispatchEvent(new Event('input'));
    });
    const busy = await page.$$eval(
      'svg.machine-plot [data-utilisation]',
      (els) => els.filter((e) => Number((e as SVGElement).dataset.utilisation) > 0).length,
    );
    expect(busy).toBeGreaterThan(0);
    await page.hover('svg.machine-plot rect.mem');
    expect(await page.textContent('.machine .tooltip')).toContain('memory controller');
    // A shared cache gives its load latency and the trip of a line between the cores behind it.
    await page.hover('svg.machine-plot rect.cache');
    const cache = (await page.textContent('.machine .tooltip')) ?? '';
    expect(cache, cache).toMatch(
      /^cache .*, load [\d.]+ ns; a line between two of its cores that share no smaller cache [\d.]+ ns/,
    );
    await shot('machine');
    await page.click('nav.tabs button[data-tab=utilisation]');
    expect(await page.$$eval('svg.utilisation-plot path.series', (p) => p.length)).toBeGreaterThan(0);
    await shot('utilisation');
  });

  it('opens the timeline of a point clicked in the comparison', async () => {
    await page.click('nav.tabs button[data-tab=comparison]');
    const before = await page.textContent('.point-title');
    await page.click('svg.comparison-plot g.series[data-algorithm=knem-linear] circle');
    expect(await page.isVisible('canvas.timeline-canvas')).toBe(true);
    const after = await page.textContent('.point-title');
    expect(after).toContain('knem-linear');
    expect(after).not.toBe(before);
    // Its calls settle into a steady state, and the title says which were taken from an earlier one.
    expect(after).toMatch(/; \d+ of its \d+ calls started in an earlier call's state/);
  });

  it('shows a YAML error inline at its line', async () => {
    const lines = DEFAULT_SCENARIO.split('\n');
    const line = lines.findIndex((l) => l.startsWith('ranks:')) + 1;
    await page.fill('textarea[name=scenario]', DEFAULT_SCENARIO.replace(/^ranks: .*$/m, 'ranks: eight'));
    await page.waitForSelector('.inline-error:not([hidden])');
    expect(await page.getAttribute('.inline-error', 'data-line')).toBe(String(line));
    expect(await page.textContent('.inline-error')).toContain('ranks');
    expect(await page.getAttribute('.gutter .bad', 'data-line')).toBe(String(line));
    await shot('editor-error');
    await page.fill('textarea[name=scenario]', DEFAULT_SCENARIO);
    await page.waitForSelector('.editor-status.ok');
  });

  it('runs a what-if machine edit beside the original, and the link reproduces it', async () => {
    // The default scenario at two of its sizes: this page runs both sides, and the link's page both
    // again, so the test's time is the simulator's; what it checks needs no more points.
    await page.fill('textarea[name=scenario]', DEFAULT_SCENARIO.replace(/^sizes: .*$/m, 'sizes: [64KiB, 1MiB]'));
    await page.waitForSelector('.editor-status.ok');
    const input = 'input[data-kind=numa][data-id="0"]';
    const original = Number(await page.inputValue(input));
    await page.fill(input, String(original / 4));
    await page.dispatchEvent(input, 'change');
    const runs = (await metrics()).runs;
    await page.click('button[name=run]');
    await waitForRun(runs);
    await page.click('nav.tabs button[data-tab=comparison]');
    const times = (side: string) =>
      page.$$eval(`svg.comparison-plot g.series[data-side=${side}] circle`, (cs) =>
        cs.map((c) => Number(c.getAttribute('data-mean-ns'))),
      );
    const before = await times('original');
    const after = await times('whatIf');
    expect(before).toHaveLength(6);
    expect(after).toHaveLength(before.length);
    expect(after.some((t, i) => Math.abs(t - before[i]) > 1e-6 * before[i])).toBe(true);
    await shot('what-if');
    // The address holds the scenario and the edit: opened again, it runs the same what-if.
    const second = await browser!.newPage({ viewport: { width: 1400, height: 900 } });
    second.on('pageerror', (e) => consoleErrors.push(e.message));
    await second.goto(page.url());
    await second.waitForSelector('svg.comparison-plot g.series[data-side=whatIf]', { timeout: 45_000 });
    const again = await second.$$eval('svg.comparison-plot g.series[data-side=whatIf] circle', (cs) =>
      cs.map((c) => Number(c.getAttribute('data-mean-ns'))),
    );
    expect(again).toEqual(after);
    await second.close();
  });

  it('drops what-if edits made for another machine when a scenario on another machine is loaded, saying so', async () => {
    expect(await page.$$eval('.edit-fields input.changed', (i) => i.length)).toBe(1);
    await page.selectOption('select[name=scenario-file]', 'p2p-crossover-zoot');
    await page.waitForSelector('.notice:not([hidden])');
    expect(await page.textContent('.notice')).toContain('the what-if edits were for dancer, not zoot: cleared');
    // It stays after the check that follows (edits that fit, or none, clear only their own notice).
    await page.waitForTimeout(600);
    expect(await page.textContent('.notice')).toContain('the what-if edits were for dancer, not zoot: cleared');
    expect(new URL(page.url()).hash).not.toContain('e=');
    await page.waitForSelector('.editor-status.ok');
    const runs = (await metrics()).runs;
    await page.click('button[name=run]');
    await waitForRun(runs);
    expect(await page.textContent('.status')).not.toContain('cannot run');
    expect(await page.$$eval('svg.comparison-plot g.series[data-side=whatIf]', (g) => g.length)).toBe(0);
    // Back on the default scenario, Reset leaves no field marked as changed.
    await page.selectOption('select[name=scenario-file]', 'default');
    await page.waitForSelector('input[data-kind=numa][data-id="0"]');
    await page.fill('input[data-kind=copy]', '1');
    await page.dispatchEvent('input[data-kind=copy]', 'change');
    expect(await page.$$eval('.edit-fields input.changed', (i) => i.length)).toBe(1);
    await page.click('button[name=reset-edits]');
    expect(await page.$$eval('.edit-fields input.changed', (i) => i.length)).toBe(0);
    expect(new URL(page.url()).hash).not.toContain('e=');
  });

  it('opens a link it cannot read in full on what it could read, saying what it left out, without running', async () => {
    const scenario = Buffer.from(DEFAULT_SCENARIO).toString('base64url');
    for (const [tail, said] of [
      ['e=bm90IGpzb24', 'the machine edits in the link (e=) cannot be read'],
      ['m=mine.xml', "the link runs on 'mine.xml', a file uploaded where it was made"],
    ]) {
      const other = await browser!.newPage({ viewport: { width: 1400, height: 900 } });
      other.on('pageerror', (e) => consoleErrors.push(e.message));
      await other.goto(`${url}#s=${scenario}&${tail}`);
      await other.waitForSelector('.notice:not([hidden])');
      expect(await other.textContent('.notice')).toContain(said);
      await other.waitForSelector('.editor-status');
      await other.waitForTimeout(1000);
      const m = await other.evaluate(() => (window as unknown as { __viz: { metrics: Metrics } }).__viz.metrics);
      expect(m.runs).toBe(0);
      expect(await other.textContent('.notice')).toContain(said);
      if (tail.startsWith('m=')) {
        expect(await other.inputValue('select[name=machine]')).toBe('mine.xml');
        await other.waitForSelector('.editor-status.bad');
        expect(await other.textContent('.editor-status')).toContain("unknown machine 'mine.xml'");
        expect(other.url()).toContain('m=mine.xml');
      }
      await other.close();
    }
  });

  it('exports the plot as SVG and PNG and the trace as JSON', async () => {
    for (const [button, check] of [
      ['export-svg', (text: string) => expect(text).toContain('<svg')],
      ['export-png', (text: string) => expect(text.slice(1, 4)).toBe('PNG')],
      ['export-trace', (text: string) => expect(JSON.parse(text).traceEvents.length).toBeGreaterThan(0)],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`button[name=${button}]`)]);
      const path = join(ARTIFACTS, download.suggestedFilename());
      await download.saveAs(path);
      check(readFileSync(path, 'latin1'));
    }
  });

  it('draws each sweep table on its own machine, plots a 0-byte size and a baseline the machine lacks, keeps the table in the link, and clears a failed run', async () => {
    const sweep = [
      'name: two-machines',
      'ranks: 2',
      'operation: bcast',
      'algorithms: [basic, knem-linear]',
      'baseline: knem-linear',
      'sizes: [0, 16KiB]',
      'iterations: 1',
      'warmup: 0',
      'sweep:',
      '  machine: [dancer, knl]',
      '',
    ].join('\n');
    await page.fill('textarea[name=scenario]', sweep);
    await page.waitForSelector('.editor-status.ok');
    let runs = (await metrics()).runs;
    await page.click('button[name=run]');
    await waitForRun(runs);
    await page.click('nav.tabs button[data-tab=comparison]');
    await page.selectOption('select[name=table]', '1');
    const circles = await page.$$eval('svg.comparison-plot circle', (cs) =>
      cs.map((c) => [c.getAttribute('cx'), c.getAttribute('cy')].join(',')),
    );
    // 16 KiB is on the plot; the 0-byte calls took no time, so they have no ratio and are named under it.
    expect(circles.length).toBeGreaterThan(0);
    expect(await page.textContent('svg.comparison-plot text.note:last-of-type')).toMatch(/^no ratio to plot.* at 0 B/);
    expect(circles.join(' ')).not.toContain('NaN');
    expect(await page.textContent('svg.comparison-plot')).toContain('knem-linear is n/a on this machine');
    expect(new URL(page.url()).hash).toContain('t=1');
    await page.click('svg.comparison-plot g.series[data-algorithm=basic] circle');
    await page.click('nav.tabs button[data-tab=machine]');
    // KNL is one package; Dancer, the first table's machine, two.
    expect(await page.$$eval('svg.machine-plot g.package', (g) => g.length)).toBe(1);
    await page.fill('textarea[name=scenario]', `${sweep}bogus: 1\n`);
    runs = (await metrics()).runs;
    await page.click('button[name=run]');
    await page.waitForFunction((n) => {
      const m = (window as unknown as { __viz: { metrics: { runs: number } } }).__viz.metrics;
      return m.runs > n && !(document.querySelector('button[name=run]') as HTMLButtonElement).disabled;
    }, runs);
    expect(await page.textContent('.status')).toContain('cannot run');
    expect(await page.$$eval('svg.machine-plot', (s) => s.length)).toBe(0);
    expect(await page.$$eval('svg.comparison-plot', (s) => s.length)).toBe(0);
    expect(new URL(page.url()).hash).not.toMatch(/[&#]p=/);
    await page.fill('textarea[name=scenario]', DEFAULT_SCENARIO);
    await page.waitForSelector('.editor-status.ok');
  });

  it.skipIf(lstopo === undefined)('keeps an uploaded 256-core hwloc machine legible (needs lstopo)', async () => {
    const file = join(ARTIFACTS, 'big-256.xml');
    execFileSync(lstopo!, ['--input', 'pack:2 [numa] l3:4 core:32 pu:2', '--of', 'xml', '-f', file]);
    await page.setInputFiles('input[name=upload]', file);
    await page.waitForFunction(
      () => (document.querySelector('select[name=machine]') as HTMLSelectElement).value === 'big-256.xml',
    );
    await page.waitForSelector('.editor-status.ok');
    const runs = (await metrics()).runs;
    await page.click('button[name=run]');
    await waitForRun(runs);
    await page.click('nav.tabs button[data-tab=machine]');
    expect(await page.$$eval('svg.machine-plot g.package', (g) => g.length)).toBe(2);
    // 128 cores a package: both start collapsed, and open on a click.
    expect(await page.$$eval('svg.machine-plot rect.core', (r) => r.length)).toBe(0);
    await shot('machine-256-collapsed');
    await page.click('svg.machine-plot g.package[data-package="0"] text');
    expect(await page.$$eval('svg.machine-plot rect.core', (r) => r.length)).toBe(128);
    await shot('machine-256-open');
  });

  it('pans a 64-rank, 100,000-step timeline end to end, painting steps in every frame (speed measured, not asserted)', async () => {
    const made = await page.evaluate(() =>
      (
        window as unknown as { __viz: { syntheticTimeline(r: number, s: number): { steps: number; end: number } } }
      ).__viz.syntheticTimeline(64, 100_000),
    );
    expect(made.steps).toBe(100_000);
    const pan = await page.evaluate(() =>
      (window as unknown as { __viz: { measurePan(f: number): Promise<Record<string, number>> } }).__viz.measurePan(
        120,
      ),
    );
    // What was drawn is checked; how fast is only recorded.
    await shot('timeline-100k');
    speed.panFps = pan.fps;
    speed.panMeanDrawMs = pan.meanDrawMs;
    speed.panMaxDrawMs = pan.maxDrawMs;
    expect(pan.frames).toBe(120);
    expect(pan.rows).toBe(64);
    expect(pan.minStepsPainted).toBeGreaterThan(0);
    expect(pan.from).toBe(0);
    expect(pan.to).toBeCloseTo(made.end, 3);
    writeFileSync(join(ARTIFACTS, 'viz-speed.json'), `${JSON.stringify(speed, null, 2)}\n`);
    console.log(`visualizer speed (headless Chromium, this machine): ${JSON.stringify(speed)}`);
  });

  it('logged no errors to the console', () => {
    expect(consoleErrors).toEqual([]);
  });
});
