// CPU seconds (user + system) and peak memory of a child process: bash's `times` for the CPU, GNU
// time for the peak where it is installed. Shared by the start-up benchmark and the SMPI comparison.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Cost {
  cpuS: number;
  peakMiB?: number;
}

const TIME = '/usr/bin/time';

/** Runs `argv` in `cwd` (its output goes to out.txt and err.txt there); throws if it fails. */
export function measureChild(argv: string[], cwd: string): Cost {
  const quoted = argv.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
  const timed = existsSync(TIME) ? `${TIME} -f 'peak %M' -o rss.txt ${quoted}` : quoted;
  const r = spawnSync('bash', ['-c', `${timed} > out.txt 2> err.txt; status=$?; times; exit $status`], {
    cwd,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed: ${readFileSync(join(cwd, 'err.txt'), 'utf8')}`);
  // `times` prints the shell's then its children's user and system times: "0m1.234s 0m0.010s".
  const children = r.stdout.trim().split('\n').at(-1) ?? '';
  const cpuS = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((s, m) => s + Number(m[1]) * 60 + Number(m[2]), 0);
  const rss = existsSync(join(cwd, 'rss.txt')) ? /peak (\d+)/.exec(readFileSync(join(cwd, 'rss.txt'), 'utf8')) : null;
  return { cpuS, ...(rss ? { peakMiB: Number(rss[1]) / 1024 } : {}) };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
