import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadClaimsFile } from '../../scenarios/reproduce/claims-loader.ts';
import { plotBySize } from '../../scenarios/reproduce/report/plot-svg.ts';
import { recordedHash, suiteHash } from '../../scenarios/reproduce/report/suite-hash.ts';
import { writeReport } from '../../scenarios/reproduce/report/write-report.ts';
import { runClaims } from '../../scenarios/reproduce/run-claims.ts';
import { loadSuite, PAPERS_DIR } from '../../scenarios/reproduce/suite.ts';
import { KiB, papersDir, syntheticRun } from './fixtures.ts';

const COMMITTED_REPORT = fileURLToPath(new URL('../../docs/reproduction/README.md', import.meta.url));

const CLAIMS = `seed: 000_x.txt
title: A paper
claims:
  - { id: r1, source: Fig. 2, statement: a halves the time, scenario: s.yaml, measure: { kind: ratio, of: a, to: base, at: 64KiB }, published: 0.5, tolerance: 0.05, expect: pass }
`;

describe('reproduction report', () => {
  it('the committed report matches the current claims and scenarios (regenerate it after changing them)', () => {
    const text = readFileSync(COMMITTED_REPORT, 'utf8');
    expect(recordedHash(text)).toBe(suiteHash(loadSuite(), PAPERS_DIR));
    expect(text).toMatch(/from commit `[0-9a-f]{7,}`/);
  });

  it('the fingerprint changes when a tolerance changes', () => {
    const dir = papersDir(CLAIMS);
    const papers = () => [loadClaimsFile(join(dir, '000', 'claims.yaml'))];
    const before = suiteHash(papers(), dir);
    writeFileSync(join(dir, '000', 'claims.yaml'), CLAIMS.replace('tolerance: 0.05', 'tolerance: 0.1'));
    expect(suiteHash(papers(), dir)).not.toBe(before);
  });

  it('writes the table, the recorded fingerprint and commit, and one plot per table', async () => {
    const dir = papersDir(CLAIMS);
    const papers = [loadClaimsFile(join(dir, '000', 'claims.yaml'))];
    const run = await runClaims(
      papers[0].claims,
      () => Promise.resolve(syntheticRun([16 * KiB, 64 * KiB, 256 * KiB], { base: [10, 10, 10], a: [8, 5, 4] })),
      () => 0,
    );
    const out = mkdtempSync(join(tmpdir(), 'report-'));
    const readme = writeReport(out, papers, run, { papersDir: dir, commit: 'abc1234' });
    const text = readFileSync(readme, 'utf8');
    expect(recordedHash(text)).toBe(suiteHash(papers, dir));
    expect(text).toContain('from commit `abc1234`');
    expect(text).toMatch(/^\| r1 \| 000 Fig\. 2 \| 0\.5 \| 0\.50 \| 0\.05 \| PASS \|/m);
    expect(readdirSync(join(out, 'plots'))).toEqual(['000-s-m-4.svg']);
    expect(text).toContain('![000/s.yaml on m](plots/000-s-m-4.svg)');
    expect(existsSync(join(out, 'plots', '000-s-m-4.svg'))).toBe(true);
    // A README that cannot be written (a link into a folder that does not exist) fails before any
    // plot is written.
    const blocked = mkdtempSync(join(tmpdir(), 'report-'));
    symlinkSync(join(blocked, 'no-such-folder', 'x.md'), join(blocked, 'README.md'));
    expect(() => writeReport(blocked, papers, run, { papersDir: dir, commit: 'abc1234' })).toThrow(/ENOENT/);
    expect(readdirSync(blocked)).toEqual(['README.md']);
  });

  it('keeps wall times out, lists the claims left out as not run, and removes plots of scenarios that did not run', async () => {
    const two = `${CLAIMS}  - { id: r2, source: Fig. 3, statement: a is faster, scenario: t.yaml, measure: { kind: ratio, of: a, to: base, at: 64KiB }, published: 0.5, tolerance: 0.05, expect: pass }\n`;
    const dir = papersDir(two, { 's.yaml': '', 't.yaml': '' });
    const papers = [loadClaimsFile(join(dir, '000', 'claims.yaml'))];
    const synthetic = () =>
      Promise.resolve(syntheticRun([16 * KiB, 64 * KiB, 256 * KiB], { base: [10, 10, 10], a: [8, 5, 4] }));
    const out = mkdtempSync(join(tmpdir(), 'report-'));
    let t = 0;
    const clock = () => (t += 1234);
    const full = await runClaims(papers[0].claims, synthetic, clock);
    writeReport(out, papers, full, { papersDir: dir, commit: 'abc1234' });
    expect(readdirSync(join(out, 'plots'))).toEqual(['000-s-m-4.svg', '000-t-m-4.svg']);
    // A figure of the user's own in the plots folder is not the report's to remove.
    writeFileSync(join(out, 'plots', 'my-figure-2.svg'), '<svg/>');
    const once = await runClaims([papers[0].claims[0]], synthetic, clock);
    const text = readFileSync(writeReport(out, papers, once, { papersDir: dir, commit: 'abc1234' }), 'utf8');
    expect(text).not.toMatch(/\d s\b/);
    expect(text).toMatch(/^Not run for this report \(1, .*\): `r2` \(t\.yaml\)\.$/m);
    expect(readdirSync(join(out, 'plots'))).toEqual(['000-s-m-4.svg', 'my-figure-2.svg']);
    // Another run of the same claims, slower or faster, writes the same file.
    const again = await runClaims([papers[0].claims[0]], synthetic, () => (t += 99999));
    expect(readFileSync(writeReport(out, papers, again, { papersDir: dir, commit: 'abc1234' }), 'utf8')).toBe(text);
  });

  it("plots the library's memory, not the time, for a scenario whose claims are all about memory", async () => {
    const memory = CLAIMS.replace(
      'measure: { kind: ratio, of: a, to: base, at: 64KiB }, published: 0.5, tolerance: 0.05',
      'measure: { kind: memory, of: a, at: 64KiB }, published: 4096, tolerance: 0',
    );
    const dir = papersDir(memory);
    const papers = [loadClaimsFile(join(dir, '000', 'claims.yaml'))];
    const sizes = [16 * KiB, 64 * KiB, 256 * KiB];
    const run = await runClaims(
      papers[0].claims,
      () => Promise.resolve(syntheticRun(sizes, { base: [10, 10, 10], a: [8, 5, 4] })),
      () => 0,
    );
    const out = mkdtempSync(join(tmpdir(), 'report-'));
    writeReport(out, papers, run, { papersDir: dir, commit: 'abc1234' });
    const svg = readFileSync(join(out, 'plots', '000-s-m-4.svg'), 'utf8');
    expect(svg).toContain('>library memory (KiB)<');
    expect(svg).not.toContain('time / base');
    // Both modules allocate the fixture's 16 KiB at every size: one flat line each at that height,
    // where the normalised times would put them at 1 and below.
    const heights = (label: string) => {
      const element = new RegExp(`<path [^>]*data-series="${label}"[^>]*>`).exec(svg)?.[0] ?? '';
      const d = / d="([^"]+)"/.exec(element)?.[1] ?? '';
      return [...d.matchAll(/,([-0-9.]+)/g)].map((m) => m[1]);
    };
    expect(new Set(heights('a')).size).toBe(1);
    expect(heights('a')).toEqual(heights('base'));
    expect(svg).toContain('>16<');
  });

  it('plots one line per module on a log-size axis, with the published values overlaid', () => {
    const svg = plotBySize({
      title: 't',
      yLabel: 'time / base',
      reference: 1,
      sizes: [16 * KiB, 64 * KiB, 256 * KiB],
      series: [
        { label: 'base', values: [1, 1, 1] },
        { label: 'a', values: [0.8, 0.5, undefined] },
      ],
      published: [{ claim: 'r1', label: 'a', from: 64 * KiB, to: 64 * KiB, value: 0.5 }],
    });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/data-series="/g)).toHaveLength(2);
    expect(svg).toContain('data-published="r1"');
    for (const tick of ['16KiB', '64KiB', '256KiB']) expect(svg).toContain(`>${tick}<`);
    // The 'a' line has two points: one segment (M ... L ...), the missing size left out.
    const element = /<path [^>]*data-series="a"[^>]*>/.exec(svg)?.[0] ?? '';
    const a = / d="([^"]+)"/.exec(element)?.[1] ?? '';
    expect(a.split('L')).toHaveLength(2);
  });
});

describe('reproduce --report from another folder', () => {
  it("names the checkout's commit wherever the command is started", () => {
    const launcher = fileURLToPath(new URL('../../bin/intranode.mjs', import.meta.url));
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const elsewhere = mkdtempSync(join(tmpdir(), 'intranode-report-cwd-'));
    const out = join(elsewhere, 'report');
    execFileSync(
      process.execPath,
      [launcher, 'reproduce', '--only', '001-cma-lock-share', '--report', out, '--jobs', '1'],
      {
        cwd: elsewhere,
        stdio: 'ignore',
      },
    );
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain(`from commit \`${head}\``);
  });
});
