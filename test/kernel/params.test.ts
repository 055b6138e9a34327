// Every kernel parameter a machine file may set is one a kernel model reads, and the other way round.
import { describe, expect, it } from 'vitest';
import { KERNEL_PARAMS } from '../../hardware/kernel-params.ts';
import { knemDefaults } from '../../sim/kernel/knem/costs.ts';
import { coldPageDefaults, firstUserAccessDefaults, kernelCosts } from '../../sim/kernel/kernel-costs.ts';
import { pageFaultDefaults } from '../../sim/node/page-fault-costs.ts';
import { smParamDefaults } from '../../sim/kernel/shm/costs.ts';
import { parseMachineYaml } from '../../hardware/machine-file.ts';
import { InputError } from '../../common/input-error.ts';
import { loadPreset, presetPath } from '../../hardware/presets.ts';
import { readFileSync } from 'node:fs';

describe('kernel parameters', () => {
  it('the machine format lists exactly the constants the kernel models read', () => {
    const read = [
      ...Object.keys(knemDefaults),
      ...Object.keys(kernelCosts(loadPreset('westmere'))),
      ...Object.keys(pageFaultDefaults),
      ...Object.keys(smParamDefaults),
      ...Object.keys(coldPageDefaults),
      ...Object.keys(firstUserAccessDefaults),
    ].sort();
    expect(Object.keys(KERNEL_PARAMS).sort()).toEqual(read);
  });

  it('a misspelt parameter in a machine file is an error naming it, with a suggestion', () => {
    const text = readFileSync(presetPath('westmere'), 'utf8').replace(
      '  cmaLock: exclusive',
      '  cmaLock: exclusive\n  params:\n    knemCreatNs: 700',
    );
    expect(() => parseMachineYaml(text, 'm.yaml')).toThrow(InputError);
    expect(() => parseMachineYaml(text, 'm.yaml')).toThrow(
      /m\.yaml:\d+:\d+.*unknown kernel parameter 'knemCreatNs' \(did you mean 'knemCreateNs'\?\)/,
    );
  });

  // Each rule (hardware/kernel-params.ts) is checked when the file is read, at the value's line, not
  // first where a run reads the parameter.
  it.each([
    ['knemMarksDirty', '2', 'must be 0 or 1, got 2'],
    ['knemMarksDirty', '0.5', 'must be a whole number, got 0.5'],
    ['cmaPagesPerBatch', '0.5', 'must be a whole number, got 0.5'],
    ['regcacheCapacity', '0', 'must be greater than zero'],
    ['kernelCopyEfficiency', '0', 'must be greater than zero'],
    ['ioatBandwidth', '0', 'must be greater than zero'],
    ['knemCreateNs', '-1000000', 'must be a non-negative number, got -1000000'],
  ])('%s: %s is an error at its line, when the file is read', (name, value, problem) => {
    const text = readFileSync(presetPath('westmere'), 'utf8').replace(
      '  cmaLock: exclusive',
      `  cmaLock: exclusive\n  params:\n    ${name}: ${value}`,
    );
    const line = text.split('\n').findIndex((l) => l.startsWith(`    ${name}:`)) + 1;
    expect(() => parseMachineYaml(text, 'm.yaml')).toThrow(
      new RegExp(`m\\.yaml:${line}:\\d+ \\(kernel\\.params\\.${name}\\): kernel parameter ${name} ${problem}`),
    );
  });

  it('a duration may be zero', () => {
    const text = readFileSync(presetPath('westmere'), 'utf8').replace(
      '  cmaLock: exclusive',
      '  cmaLock: exclusive\n  params:\n    knemCreateNs: 0\n    knemMarksDirty: 0',
    );
    expect(parseMachineYaml(text, 'm.yaml').kernel.params).toMatchObject({ knemCreateNs: 0, knemMarksDirty: 0 });
  });

  it('a known parameter overrides the model default', () => {
    const text = readFileSync(presetPath('westmere'), 'utf8').replace(
      '  cmaLock: exclusive',
      '  cmaLock: exclusive\n  params:\n    regcacheCapacity: 64',
    );
    expect(kernelCosts(parseMachineYaml(text, 'm.yaml')).regcacheCapacity).toBe(64);
  });
});
