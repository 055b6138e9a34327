// Machine variants: the path grammar over a MachineSpec, its mistakes, and the structural sharing
// that keeps many variants cheap (hardware/variant/).
import { is, type List } from 'immutable';
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../hardware/presets.ts';
import { validateMachine } from '../../hardware/validate.ts';
import { MachineVariants, toSpec } from '../../hardware/variant/machine-variant.ts';
import { ParameterPathError, parsePath, resolvePath } from '../../hardware/variant/parameter-path.ts';

const dancer = loadPreset('dancer');
const knl = loadPreset('knl');

const placesOf = (path: string, spec = dancer) => resolvePath(spec, path).map((l) => l.steps.join('.'));
const messageOf = (path: string, spec = dancer): string => {
  try {
    resolvePath(spec, path);
  } catch (e) {
    if (e instanceof ParameterPathError) return e.message;
    throw e;
  }
  throw new Error(`'${path}' resolved`);
};

describe('parameter paths', () => {
  it('read dotted keys, * and list indices', () => {
    expect(parsePath('links.*.bandwidth')).toEqual(['links', '*', 'bandwidth']);
    expect(parsePath('caches.12.sizeBytes')).toEqual(['caches', 12, 'sizeBytes']);
  });

  it('resolve * to every element, an index to one, against the machine', () => {
    expect(placesOf('numaNodes.*.bandwidth')).toEqual(['numaNodes.0.bandwidth', 'numaNodes.1.bandwidth']);
    expect(placesOf('caches.17.sizeBytes')).toEqual(['caches.17.sizeBytes']);
    expect(placesOf('costs.copyBandwidth')).toEqual(['costs.copyBandwidth']);
    expect(placesOf('kernel.syscallNs')).toEqual(['kernel.syscallNs']);
    // An optional field the preset leaves out (a shared cache's cache-to-cache latency) is a place too.
    expect(placesOf('caches.8.peerLatencyNs')).toEqual(['caches.8.peerLatencyNs']);
  });

  it('resolve * over the entries of kernel.mechanisms, and name a kernel parameter the machine leaves to its default', () => {
    expect(placesOf('kernel.mechanisms.*')).toEqual(
      Object.keys(dancer.kernel.mechanisms).map((m) => `kernel.mechanisms.${m}`),
    );
    expect(placesOf('kernel.params.knemCreateNs')).toEqual(['kernel.params.knemCreateNs']);
  });

  it('name what is wrong: an unknown key with the keys there, an index past the end, structure, a path to nothing', () => {
    expect(messageOf('links.*.bandwdth')).toMatch(
      /unknown key 'bandwdth' in links\.0 \(did you mean 'bandwidth'\?\); keys there: .*latencyNs/,
    );
    expect(messageOf('numa.*.bandwidth')).toMatch(/unknown key 'numa' in the machine.*keys there: .*numaNodes/);
    expect(messageOf('links.3.bandwidth')).toMatch(/links has 1 entries \(0\.\.0\), so no entry 3/);
    expect(messageOf('links.bandwidth')).toMatch(/links is a list of 1: write an index \(0\.\.0\) or \*/);
    expect(messageOf('links.*.name')).toMatch(/links\.0\.name is not a parameter a sweep may change/);
    // Fields the simulator never reads: a sweep of them would print one row over and over.
    expect(messageOf('cores.*.frequencyGHz')).toBe(
      "cores.0.frequencyGHz is not a parameter a sweep may change: the simulator does not read a core's frequency; it reads the rates the frequency sets: costs.copyBandwidth, costs.reduceBandwidth, caches.*.bandwidth and caches.*.latencyNs",
    );
    expect(messageOf('numaNodes.1.memoryBytes')).toMatch(
      /^numaNodes\.1\.memoryBytes is not a parameter a sweep may change: the simulator does not read how much memory/,
    );
    expect(messageOf('links.*')).toMatch(/links\.0 is not a parameter but holds some: bandwidth, latencyNs/);
    expect(messageOf('costs.*')).toMatch(/\* stands for every element of a list/);
    expect(messageOf('nics.*.bandwidth')).toMatch(/matches nothing in this machine/);
    expect(messageOf('kernel.params.knemCreatNs')).toMatch(/did you mean 'knemCreateNs'/);
    expect(() => parsePath('links..bandwidth')).toThrow(/part 2 of the path is empty/);
    expect(() => parsePath('links.-1.bandwidth')).toThrow(/'-1' is not a key, a list index or \*/);
  });
});

describe('variants', () => {
  it('share every subtree they do not change, as immutable structures and as plain specs', () => {
    const variants = new MachineVariants(knl);
    const links = resolvePath(knl, 'caches.*.bandwidth');
    const a = variants.variant(links.map((l) => ({ steps: l.steps, value: 1 })));
    const b = variants.variant(links.map((l) => ({ steps: l.steps, value: 2 })));
    expect(a.get('cores')).toBe(variants.base.get('cores'));
    expect(is(a.get('caches'), b.get('caches'))).toBe(false);
    expect((a.get('caches') as List<unknown>).size).toBe(knl.caches.length);
    const [plainA, plainB] = [toSpec(a), toSpec(b)];
    expect(plainA.cores).toBe(plainB.cores);
    expect(plainA.numaNodes).toBe(plainB.numaNodes);
    expect(plainA.caches).not.toBe(plainB.caches);
    expect(plainA.caches.every((c) => c.bandwidth === 1)).toBe(true);
    expect(plainB.caches.every((c) => c.bandwidth === 2)).toBe(true);
    // The preset itself is left as it was, and a shared plain object cannot be changed by one holder.
    expect(knl.caches[0].bandwidth).not.toBe(1);
    expect(Object.isFrozen(plainA.cores[0])).toBe(true);
  });

  it('become a valid machine equal to the base wherever they change nothing', () => {
    const variants = new MachineVariants(dancer);
    const spec = toSpec(variants.variant([{ steps: ['links', 0, 'bandwidth'], value: 3 }]));
    validateMachine(spec);
    expect(spec.links[0].bandwidth).toBe(3);
    expect({ ...spec, links: dancer.links }).toEqual(dancer);
  });

  it('may give a NIC no latency, as any duration (machine-format.md: zero is a cost that does not exist)', () => {
    const nuioa = loadPreset('opteron-nuioa');
    const variants = new MachineVariants(nuioa);
    const spec = toSpec(variants.variant([{ steps: ['nics', 0, 'latencyNs'], value: 0 }]));
    expect(() => validateMachine(spec)).not.toThrow();
    expect(spec.nics[0].latencyNs).toBe(0);
    const negative = toSpec(variants.variant([{ steps: ['nics', 0, 'latencyNs'], value: -1 }]));
    expect(() => validateMachine(negative)).toThrow(/NIC latency must not be negative, got -1/);
  });

  it('cut a list to its first entries, sharing the rest', () => {
    const variants = new MachineVariants(dancer);
    const spec = toSpec(variants.variant([{ steps: ['numaNodes'], keep: 1 }]));
    expect(spec.numaNodes).toEqual([dancer.numaNodes[0]]);
    expect(spec.cores).toEqual(dancer.cores);
  });
});
