import { describe, expect, it } from 'vitest';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { tinyMachine } from '../helpers/machines.ts';

const run = (bytes: number, cores: number[], cache: 'on' | 'off' = 'off') =>
  runAlgorithm({
    machine: tinyMachine(),
    cores,
    algorithm: 'pingpong:shm',
    call: { bytes, root: 0, params: {} },
    cache,
    iterations: 3,
    warmup: 1,
    seed: 's',
  });

describe('ping-pong over the shared-memory double copy', () => {
  it('delivers the bytes both ways for sizes around the chunk size', () => {
    for (const bytes of [0, 1, 4095, 65536, 65537, 300_000]) {
      const out = run(bytes, [0, 1]);
      expect(out.times.every((t) => t > 0)).toBe(true);
    }
  });

  it('small messages are faster between cores sharing a cache than across sockets', () => {
    const near = run(64, [0, 1]).times[0];
    const far = run(64, [0, 2]).times[0];
    expect(near).toBeLessThan(far);
  });

  it('time grows with size and is deterministic', () => {
    const a = run(1 << 20, [0, 2]);
    const b = run(1 << 20, [0, 2]);
    expect(a.times).toEqual(b.times);
    expect(run(1 << 16, [0, 2]).times[0]).toBeLessThan(a.times[0]);
  });

  it('records copy, control and wait steps in the breakdown', () => {
    const out = run(1 << 18, [0, 2]);
    // The copies through the ring, the control lines (queue entries, flags) between the two
    // ranks, and each side's wait for the other's message.
    for (const kind of ['copy', 'control', 'wait']) expect(out.totals[kind], kind).toBeGreaterThan(0);
  });
});

describe('a mechanism the kernel lacks', () => {
  it('is reported as an input error naming the algorithm and the machine', async () => {
    const { simulatePoint } = await import('../../scenarios/simulate-point.ts');
    const { InputError } = await import('../../common/input-error.ts');
    const machine = tinyMachine();
    machine.kernel.mechanisms.cma = false;
    const point = {
      scenario: 't',
      machine,
      cores: [0, 1],
      operation: 'pingpong',
      algorithm: 'pingpong:cma',
      params: {},
      bytes: 4096,
      root: 0,
      cache: 'off' as const,
      iterations: 1,
      warmup: 0,
      seed: 's',
    };
    expect(() => simulatePoint(point)).toThrow(InputError);
    expect(() => simulatePoint(point)).toThrow(/pingpong:cma cannot run on machine tiny: cma: ENOSYS/);
    expect(() => simulatePoint({ ...point, file: 'study.yaml' })).toThrow(
      /^study\.yaml \(algorithms\): pingpong:cma cannot run on machine tiny/,
    );
  });

  it('a wrong machine constant a mechanism reads only once called is an input error too, naming the field', async () => {
    const { simulatePoint } = await import('../../scenarios/simulate-point.ts');
    const { InputError } = await import('../../common/input-error.ts');
    const machine = tinyMachine();
    machine.origin = 'box.yaml';
    machine.kernel.mechanisms.knem = true;
    machine.kernel.params.knemCreateNs = -5;
    const point = {
      scenario: 't',
      machine,
      cores: [0, 1],
      operation: 'pingpong',
      algorithm: 'pingpong:knem',
      params: {},
      bytes: 4096,
      root: 0,
      cache: 'off' as const,
      iterations: 1,
      warmup: 0,
      seed: 's',
    };
    expect(() => simulatePoint(point)).toThrow(InputError);
    expect(() => simulatePoint(point)).toThrow(
      'box.yaml (kernel.params.knemCreateNs): knemCreateNs must be a non-negative number, got -5',
    );
  });
});
