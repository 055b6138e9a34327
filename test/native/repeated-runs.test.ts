import { describe, expect, it } from 'vitest';
import { buildReport, type Report } from '../../native-validate/report.ts';
import { compareTrips } from '../../native-validate/host-check.ts';
import { repeatedRunsText, runsMeetingTarget } from '../../native-validate/repeated-runs.ts';
import { readRuns, repeatCount, validationDoc } from '../../native-validate/validation-doc.ts';
import { row, type Row } from '../../native-validate/validate.ts';
import { steadyStats } from '../helpers/native-stats.ts';

/** A run whose test rows err by `errors` (in %), shm then cma alternately, fitted to `llcBytes`; with
 *  `trips`, each row's line trip after its case (the start's is 31 ns where the host was checked). */
function run(errors: number[], load: string, llcBytes?: number, changed?: boolean, trips?: number[]): Report {
  const claims = row(
    {
      set: 'training',
      name: 'claims ring',
      mechanism: 'shm',
      ranks: 2,
      bytes: 65536,
      measured: steadyStats(65536, 7130),
    },
    7130,
  );
  const rows: Row[] = errors.map((e, i) =>
    row(
      {
        set: 'test',
        name: 'x',
        mechanism: i % 2 ? 'cma' : 'shm',
        ranks: 2,
        bytes: 4096,
        measured: { ...steadyStats(4096, 1000), ...(trips ? { tripNs: trips[i] } : {}) },
      },
      1000 * (1 + e / 100),
    ),
  );
  return buildReport({
    host: { name: 'h', description: 'd', via: 'sysfs', kernel: '6', cores: [0, 1] },
    load: { start: `${load} 0.5 0.5`, end: '1 1 1' },
    command: 'intranode validate',
    fitted: llcBytes
      ? [
          { field: 'caches[L3].size', value: llcBytes, source: 'measured: a chase' },
          { field: 'caches[L3].peerLatencyNs', value: 31.2, source: 'measured: a line trip' },
        ]
      : [],
    machine: 'calibrated',
    native: { iterations: 20, rounds: 3, warmup: 2, cache: 'cold' },
    notes: [],
    ...(changed === undefined ? {} : { hostCheck: compareTrips([0, 1], 31, changed ? 100 : 32) }),
    rows: llcBytes ? [claims, ...rows] : rows,
  });
}

describe('the same validation command, run after run', () => {
  it('gives every run its line and counts the runs that met the target', () => {
    const runs = [
      run([5, -8, 30], '1.2', 4 * 2 ** 20, false, [31, 90, 32]),
      run([2, 4, -9], '0.4', 6.5 * 2 ** 20, true),
      run([12, 11, 20], '2.0'),
    ];
    expect(runs.map((r) => r.summary.test.targetMet)).toEqual([false, true, false]);
    expect(runsMeetingTarget(runs)).toBe(1);
    const text = repeatedRunsText(runs).join('\n');
    expect(text).toContain('was met in 1 of the 3 runs');
    expect(text).toContain(
      '| run | load at start | last-level cache fitted | line trip fitted | claims ring | median abs. error | max abs. error | host check | rows in the other placement | rows in neither placement | median, max without them | cma median | shm median | target |',
    );
    // Run 1's second row ran with the trip at 90 ns against 31 at the start: without it, 5 and 30 %.
    expect(text).toContain(
      '| 1 | 1.2 | 4 MiB | 31.2 ns | 7.13 us | 8 % | 30 % | same | 0 of 3 | 1 of 3 | 17.5 %, 30 % | 8 % | 17.5 % | not met |',
    );
    expect(text).toContain(
      '| 2 | 0.4 | 6.5 MiB | 31.2 ns | 7.13 us | 4 % | 9 % | changed | - | - | - | 4 % | 5.5 % | met |',
    );
    expect(text).toContain(
      '| 3 | 2.0 | the whole cache | - | - | 12 % | 20 % | - | - | - | - | 11 % | 16 % | not met |',
    );
    // A report kept from before the other placement was modelled has no count of its rows.
    const old = structuredClone(runs[0]);
    delete old.summary.placement!.other;
    expect(repeatedRunsText([old, runs[1]]).join('\n')).toContain('| same | - | 1 of 3 |');
  });

  it('says nothing of repeats when the command ran once', () => {
    expect(repeatedRunsText([run([1, 2], '1')])).toEqual([]);
  });

  it('takes --repeat out of the arguments handed to validate', () => {
    expect(repeatCount(['--mpi', '--repeat', '3', '--rounds', '5'])).toEqual({
      repeat: 3,
      rest: ['--mpi', '--rounds', '5'],
    });
    expect(repeatCount(['--mpi'])).toEqual({ repeat: 1, rest: ['--mpi'] });
    expect(() => repeatCount(['--repeat', '0'])).toThrow("--repeat takes a whole number from 1 to 20, got '0'");
    expect(() => repeatCount(['--repeat'])).toThrow("--repeat takes a whole number from 1 to 20, got ''");
  });

  it('puts the runs last in the doc, under their own heading, and says so where the target is read', () => {
    const runs = [run([5, -8, 30], '1.2', 4 * 2 ** 20), run([2, 4, -9], '0.4', 6.5 * 2 ** 20)];
    const doc = validationDoc(runs, 'a CPU');
    const headings = doc.split('\n').filter((l) => l.startsWith('## '));
    expect(headings[headings.length - 1]).toBe('## The same command, run after run');
    expect(doc.indexOf('What the calibration learns')).toBeLessThan(doc.indexOf('## The same command'));
    expect(doc).toContain('The first run: median 8 %, maximum 30 % over 3 cases: not met. Met in 1 of the 2 runs');
    expect(doc).toContain('from 2 runs of the command below');
    // One run: no such section, and the verdict is that run's.
    const one = validationDoc(runs.slice(0, 1), 'a CPU');
    expect(one).not.toContain('## The same command');
    expect(one).toContain('This run: median 8 %');
  });

  it('reads the runs kept beside the doc, and a file of one run as written before', () => {
    const runs = [run([1, 2], '1'), run([3, 4], '2')];
    expect(readRuns(JSON.stringify({ runs }))).toEqual(runs);
    expect(readRuns(JSON.stringify(runs[0]))).toEqual([runs[0]]);
  });
});
