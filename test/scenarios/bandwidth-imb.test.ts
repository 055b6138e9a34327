// The MB/s column of point-to-point tables and the IMB-style report.
import { describe, expect, it } from 'vitest';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { megabytesPerSecond, reportsBandwidth } from '../../scenarios/report/bandwidth.ts';
import { formatImbReport } from '../../scenarios/report/imb.ts';
import { formatTableReport } from '../../scenarios/report/table.ts';
import { runScenario } from '../../scenarios/run.ts';
import { UnavailableError } from '../../scenarios/point.ts';
import { fakeResolver, fakeRunner, fakeCatalogue } from './fixtures.ts';

const TEXT = `name: p2p
machine: two-socket
ranks: 2
operation: test-op
algorithms: [linear, tree]
sizes: [1KiB, 1MiB]
`;

const loaded = loadScenarioText(TEXT, { file: 'p2p.yaml', resolveMachine: fakeResolver, catalogue: fakeCatalogue });
// The reporters read the operation's name only: the fake algorithms stand in for a ping-pong.
const asPingpong = { ...loaded, operation: 'pingpong' };

describe('bandwidth', () => {
  it('is million bytes per second, for the point-to-point operations only', () => {
    expect(megabytesPerSecond(1_000_000, 1e9)).toBe(1);
    expect(megabytesPerSecond(1024, 0)).toBeNaN();
    expect(['pingpong', 'pingping', 'knemcopy', 'bcast', 'onetoall'].map(reportsBandwidth)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('adds an MB/s column to point-to-point tables', () => {
    // fakeRunner: 1000 ns + bytes × 2 ranks × (0.5 linear, 0.25 tree).
    const table = formatTableReport(runScenario(asPingpong, fakeRunner)).split('\n');
    expect(table.slice(-4)).toEqual([
      '# Size   linear(us)  linear(norm)  linear(MB/s)  tree(us)  tree(norm)  tree(MB/s)',
      '1024           2.02          1.00        505.93      1.51        0.75      677.25',
      '1048576     1049.58          1.00        999.05    525.29        0.50     1996.19',
      '',
    ]);
    expect(formatTableReport(runScenario(loaded, fakeRunner))).not.toContain('MB/s');
  });
});

describe('--format imb', () => {
  it('prints one IMB block per algorithm', () => {
    const text = formatImbReport(runScenario(asPingpong, fakeRunner));
    expect(text.split('\n\n')).toHaveLength(2);
    expect(text.split('\n\n')[0]).toBe(`#---------------------------------------------------------------
# Benchmarking test-op:linear
# #processes = 2
# Machine: two-socket; placement compact (cores 0 2); cache off
#---------------------------------------------------------------
 #bytes  #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]  Mbytes/sec
   1024             5         1.82         2.23         2.02      505.93
1048576             5       944.62      1154.53      1049.58      999.05`);
  });

  it('leaves out Mbytes/sec for collectives and gives the reason for an n/a algorithm', () => {
    const result = runScenario(loaded, (p) => {
      if (p.algorithm.endsWith(':tree')) throw new UnavailableError('no tree here');
      return fakeRunner(p);
    });
    const [linear, tree] = formatImbReport(result).trimEnd().split('\n\n');
    expect(linear.split('\n')[5]).toBe(' #bytes  #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]');
    expect(tree.split('\n').at(-1)).toBe('# n/a: no tree here');
  });

  it('prints the sizes that ran and names those that could not', () => {
    const result = runScenario(loaded, (p) => {
      if (p.algorithm.endsWith(':tree') && p.bytes > 1024) throw new UnavailableError('no big tree here');
      return fakeRunner(p);
    });
    const tree = formatImbReport(result).trimEnd().split('\n\n')[1].split('\n');
    expect(tree.slice(5)).toEqual([
      '#bytes  #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]',
      '  1024             5         1.36         1.66         1.51',
      '# n/a at 1048576 bytes: no big tree here',
    ]);
  });
});
