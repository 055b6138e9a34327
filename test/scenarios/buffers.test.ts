// `buffers: reused | fresh` in scenarios: read, carried to the points, reported, and checked.
import { describe, expect, it } from 'vitest';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { expandScenario } from '../../scenarios/expand.ts';
import { fakeCatalogue, fakeResolver } from './fixtures.ts';
import { inputErrorOf } from '../helpers/input-error.ts';

const BASE = `machine: two-socket
ranks: 4
operation: test-op
algorithms: [linear]
sizes: 1KiB
`;
const load = (text: string) =>
  loadScenarioText(text, { file: 'study.yaml', resolveMachine: fakeResolver, catalogue: fakeCatalogue });

describe('buffers', () => {
  it('defaults to reused, which leaves the points as they were', () => {
    const s = load(BASE);
    expect(s.buffers).toBe('reused');
    expect('buffers' in expandScenario(s)[0].rows[0].cells[0].point).toBe(false);
  });

  it('carries fresh to every point', () => {
    const s = load(`${BASE}buffers: fresh\n`);
    expect(s.buffers).toBe('fresh');
    expect(expandScenario(s)[0].rows[0].cells[0].point.buffers).toBe('fresh');
  });

  it.each([
    ['buffers: new', "study.yaml:6:10 (buffers): buffers must be 'reused' or 'fresh', got 'new'"],
    ['buffers: frsh', "(did you mean 'fresh'?)"],
    ['buffers: true', "buffers must be 'reused' or 'fresh'"],
    ['bufers: fresh', "(did you mean 'buffers'?)"],
  ])('rejects %s', (line, message) => {
    expect(inputErrorOf(() => load(`${BASE}${line}\n`)).message).toContain(message);
  });
});
