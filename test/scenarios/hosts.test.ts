// `hosts:` in scenarios: the machine becomes several hosts, and every misuse is an error at its field.
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../algorithms/catalogue.ts';
import { resolveMachine } from '../../hardware/index.ts';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { inputErrorOf } from '../helpers/input-error.ts';

const BASE = `machine: opteron-nuioa
hosts: 2
placement: [0, 8]
operation: pingpong
algorithms:
  - { name: shm, params: { rails: share, railShare: 0.6 }, label: split-60 }
sizes: 1MiB
`;

const load = (text: string) =>
  loadScenarioText(text, {
    file: 'hosts.yaml',
    resolveMachine: (ref, baseDir) => resolveMachine(ref, { baseDir }),
    catalogue,
  });
const errorOf = (text: string) => inputErrorOf(() => load(text));

describe('scenarios on several hosts', () => {
  it('run on the machine repeated once per host, ranks placed on any host', () => {
    const s = load(BASE);
    const spec = s.machines[0].spec;
    expect(spec.hosts).toBe(2);
    expect(spec.cores.find((c) => c.id === 8)?.host).toBe(1);
    expect(s.algorithms[0].params).toMatchObject({ rails: 'share', railShare: 0.6 });
  });

  it('take a wire latency and NIC models for the slots', () => {
    const s = load(BASE.replace('hosts: 2', 'hosts: { count: 2, wire: { latency: 0.3us }, nics: { ib1: myri-10g } }'));
    const nics = s.machines[0].spec.nics;
    expect(nics[0].latencyNs).toBe(1500);
    expect(nics[1].model).toMatch(/Myri-10G/);
  });

  it.each([
    [BASE.replace('hosts: 2', 'hosts: 0'), 'hosts', /at least 1/],
    [BASE.replace('hosts: 2', 'hosts: 100000'), 'hosts', /at most 1024, got 100000/],
    [BASE.replace('hosts: 2', 'hosts: { count: 1025 }'), 'hosts.count', /at most 1024/],
    [
      BASE.replace('hosts: 2', 'hosts: { count: 2, wires: 1 }'),
      'hosts.wires',
      /unknown key 'wires'.*did you mean 'wire'/,
    ],
    [BASE.replace('hosts: 2', 'hosts: { wire: { latency: 1us } }'), 'hosts.count', /count/],
    [BASE.replace('hosts: 2', 'hosts: { count: 2, wire: { latency: fast } }'), 'hosts.wire.latency', /latency/],
    [
      BASE.replace('hosts: 2', 'hosts: { count: 2, nics: { ib1: myri10g } }'),
      'hosts.nics.ib1',
      /did you mean 'myri-10g'/,
    ],
    [
      BASE.replace('hosts: 2', 'hosts: { count: 2, nics: { ib2: myri-10g } }'),
      'hosts.nics.ib2',
      /no NIC 'ib2'.*ib0, ib1/,
    ],
    [BASE.replace('placement: [0, 8]', 'placement: [0, 16]'), 'placement[1]', /no core 16/],
    [BASE.replace('railShare: 0.6', 'railShare: 1.5'), 'algorithms[0].params.railShare', /at most 1/],
    [BASE.replace('rails: share', 'rails: numaa'), 'algorithms[0].params.rails', /did you mean 'numa'/],
    [
      BASE.replace('operation: pingpong', 'operation: bcast').replace(/algorithms:\n.*\n/, 'algorithms: [basic]\n'),
      'hosts',
      /operation 'bcast' cannot run on several hosts/,
    ],
    [BASE.replace('name: shm', 'name: knem'), 'algorithms[0]', /pingpong:knem cannot run on several hosts/],
    [BASE.replace('machine: opteron-nuioa', 'machine: dancer').replace('[0, 8]', '[0, 1]'), 'hosts', /no NIC/],
    [BASE.replace('hosts: 2\n', ''), 'algorithms[0].params.rails', /one host/],
    [BASE.replace('hosts: 2', 'hosts: 1'), 'algorithms[0].params.rails', /one host/],
    [BASE.replace('rails: share, ', ''), 'algorithms[0].params.railShare', /only with rails: share/],
    [BASE.replace('rails: share', 'rails: even'), 'algorithms[0].params.railShare', /got rails: 'even'/],
  ])('reject a mistake at its field (%#)', (text, field, message) => {
    const e = errorOf(text);
    expect(e.location.field).toBe(field);
    expect(e.message).toMatch(message);
    expect(e.location.file).toBe('hosts.yaml');
    expect(e.location.line).toBeGreaterThan(0);
  });

  it('reject a NIC without a latency when hosts must reach each other', () => {
    const nuioa = resolveMachine('opteron-nuioa', {});
    const e = inputErrorOf(() =>
      loadScenarioText(BASE, {
        file: 'hosts.yaml',
        resolveMachine: () => ({ ...nuioa, nics: nuioa.nics.map(({ latencyNs: _, ...n }) => n) }),
        catalogue,
      }),
    );
    expect(e.location.field).toBe('hosts');
    expect(e.message).toMatch(/NIC 'ib0' of machine 'opteron-nuioa' has no latency/);
  });

  it('take one host, the default, on a machine without NICs or without NIC latencies', () => {
    const one = BASE.replace('hosts: 2', 'hosts: 1').replace(
      '  - { name: shm, params: { rails: share, railShare: 0.6 }, label: split-60 }',
      '  - shm',
    );
    const dancer = load(one.replace('machine: opteron-nuioa', 'machine: dancer').replace('[0, 8]', '[0, 1]'));
    expect(dancer.machines[0].spec.hosts).toBe(1);
    expect(dancer.machines[0].spec.nics).toEqual([]);
    const nuioa = resolveMachine('opteron-nuioa', {});
    const s = loadScenarioText(one.replace('[0, 8]', '[0, 1]'), {
      file: 'hosts.yaml',
      resolveMachine: () => ({ ...nuioa, nics: nuioa.nics.map(({ latencyNs: _, ...n }) => n) }),
      catalogue,
    });
    expect(s.machines[0].spec.hosts).toBe(1);
  });
});
