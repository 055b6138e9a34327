// Names every JavaScript object inherits ('toString', 'constructor', 'valueOf') typed where a user
// names a unit, a kernel parameter, an XML entity or a NIC model: each is refused like any unknown
// name, never taken as known (a table lookup that is not restricted to its own keys finds them).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ownEntry } from '../../common/own-key.ts';
import { InputError } from '../../common/input-error.ts';
import { clusterOf } from '../../hardware/cluster.ts';
import { importHwlocXml } from '../../hardware/hwloc/import.ts';
import { parseMachineYaml } from '../../hardware/machine-file.ts';
import { loadPreset, presetPath } from '../../hardware/presets.ts';
import { parseDuration } from '../../scenarios/duration.ts';
import { parseSize } from '../../scenarios/sizes.ts';
import { inputErrorOf } from '../helpers/input-error.ts';

const INHERITED = ['toString', 'constructor', 'valueOf', 'hasOwnProperty'];
const ZOOT = readFileSync(presetPath('zoot'), 'utf8');
const HWLOC = readFileSync(new URL('../fixtures/hwloc/v2-two-socket.xml', import.meta.url), 'utf8');

function replaced(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

describe('a name every object inherits', () => {
  it('is not an entry of a table', () => {
    const table = { ns: 1 };
    expect(ownEntry(table, 'ns')).toBe(1);
    for (const name of INHERITED) expect(ownEntry(table, name)).toBeUndefined();
  });

  it('is no unit of a size or a duration', () => {
    for (const name of INHERITED) {
      expect(() => parseSize(`4${name}`)).toThrow(/unknown unit/);
      expect(() => parseDuration(`4${name}`)).toThrow(/unknown unit/);
    }
  });

  it('is no unit of a machine file, and no kernel parameter', () => {
    for (const name of INHERITED) {
      const unit = inputErrorOf(() =>
        parseMachineYaml(replaced(ZOOT, 'bandwidth: 10.7 ', `bandwidth: 10.7${name} `), 'zoot.yaml'),
      );
      expect(unit.message).toMatch(new RegExp(`unknown unit '${name}'`));
      const param = inputErrorOf(() =>
        parseMachineYaml(replaced(ZOOT, '    knemMarksDirty: 0', `    ${name}: 0`), 'zoot.yaml'),
      );
      expect(param.message).toMatch(new RegExp(`unknown kernel parameter '${name}'`));
    }
  });

  it('is no entity of an hwloc file', () => {
    for (const name of INHERITED) {
      const text = replaced(HWLOC, 'value="Intel(R) Xeon(R)', `value="&${name};Intel(R) Xeon(R)`);
      expect(() => importHwlocXml(text, 'two.xml')).toThrow(InputError);
    }
  });

  it('is no NIC model', () => {
    const nuioa = loadPreset('opteron-nuioa');
    for (const name of INHERITED)
      expect(() => clusterOf(nuioa, { hosts: 2, nics: { ib0: name } })).toThrow(/unknown NIC model/);
  });
});
