// Every kernel parameter a machine file may set is one a kernel model reads, and the other way round.
import { describe, expect, it } from 'vitest';
import { KERNEL_PARAMS } from '../../hardware/kernel-params.ts';
import { knemDefaults } from '../../sim/kernel/knem/costs.ts';
import { kernelCosts } from '../../sim/kernel/kernel-costs.ts';
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

  it('a yes-or-no parameter other than 0 or 1 is an error at its line', () => {
    const text = readFileSync(presetPath('westmere'), 'utf8').replace(
      '  cmaLock: exclusive',
      '  cmaLock: exclusive\n  params:\n    knemMarksDirty: 2',
    );
    expect(() => parseMachineYaml(text, 'm.yaml')).toThrow(
      /m\.yaml:\d+:\d+.*kernel parameter 'knemMarksDirty' is 0 or 1, got 2/,
    );
  });

  it('a negative parameter is an error at its line, when the file is read', () => {
    const text = readFileSync(presetPath('westmere'), 'utf8').replace(
      '  cmaLock: exclusive',
      '  cmaLock: exclusive\n  params:\n    knemCreateNs: -1000000',
    );
    expect(() => parseMachineYaml(text, 'm.yaml')).toThrow(
      /m\.yaml:\d+:\d+.*kernel parameter 'knemCreateNs' must be a non-negative number, got -1000000/,
    );
  });

  it('a known parameter overrides the model default', () => {
    const text = readFileSync(presetPath('westmere'), 'utf8').replace(
      '  cmaLock: exclusive',
      '  cmaLock: exclusive\n  params:\n    regcacheCapacity: 64',
    );
    expect(kernelCosts(parseMachineYaml(text, 'm.yaml')).regcacheCapacity).toBe(64);
  });
});
