// Machine files: a YAML description of a node, compact where the machine is regular and explicit
// where it is not. The format is documented in docs/machine-format.md. Every mistake becomes an
// InputError naming the file, line, column and field.

import { InputError } from '../common/input-error.ts';
import { fileStem } from '../common/paths.ts';
import { onOneLine } from '../common/printable.ts';
import { buildCompute } from './machine-file/build-compute.ts';
import { buildInterconnect } from './machine-file/build-interconnect.ts';
import { buildCosts, buildKernel } from './machine-file/build-kernel.ts';
import { readGuessed } from './machine-file/guessed.ts';
import { Origins } from './machine-file/origins.ts';
import { parseYaml } from '../common/yaml/parse.ts';
import type { MachineSpec } from './spec.ts';
import { validateMachine } from './validate.ts';
import { readBandwidth } from './machine-file/units.ts';

export const MACHINE_KEYS = [
  'name',
  'description',
  'packages',
  'caches',
  'numa',
  'hubs',
  'links',
  'routing',
  'ioBuses',
  'costs',
  'kernel',
  'distances',
  'guessed',
  'measured',
] as const;

/** Measurements a machine file may cite to check the model against; the model never reads them. */
const MEASURED_KEYS = ['oneCoreCopy'] as const;

export interface ParseOptions {
  /** Recorded as MachineSpec.origin; defaults to the file name. */
  origin?: string;
}

/** Parses and validates the text of a machine file; `file` is used in messages and as the default name. */
export function parseMachineYaml(text: string, file: string, options: ParseOptions = {}): MachineSpec {
  const rootNode = parseYaml(text, file);
  if (!rootNode.filled) throw new InputError('the machine file is empty', { file });
  const root = rootNode.map(MACHINE_KEYS);
  const origins = new Origins(rootNode);

  const name = root.get('name')?.printable('name') ?? onOneLine(fileStem(file));
  const description = root.get('description')?.text() ?? '';
  const compute = buildCompute(root, origins);
  const interconnect = buildInterconnect(root, origins);
  const costs = buildCosts(root, origins);
  const kernel = buildKernel(root, origins);

  let distances: number[][] | undefined;
  const distancesNode = root.get('distances');
  if (distancesNode) {
    origins.set('distances', distancesNode);
    distances = distancesNode.items().map((row, i) => {
      origins.set(`distances[${i}]`, row);
      return row.items().map((cell, j) => {
        origins.set(`distances[${i}][${j}]`, cell);
        return cell.number();
      });
    });
  }
  const measuredNode = root.get('measured');
  let measured: MachineSpec['measured'];
  if (measuredNode) {
    const m = measuredNode.map(MEASURED_KEYS);
    const copy = m.get('oneCoreCopy');
    measured = copy ? { oneCoreCopy: readBandwidth(copy) } : {};
  }
  origins.set('name', root.get('name'));
  origins.set('packages', root.get('packages'));
  origins.set('numaNodes', root.get('numa'));
  origins.setOptional('links', root.get('links'));

  const spec: MachineSpec = {
    name,
    description,
    origin: options.origin ?? file,
    ...compute,
    ...interconnect,
    costs,
    kernel,
    ...(distances ? { distances } : {}),
    ...(measured ? { measured } : {}),
    guessed: [],
  };
  validateMachine(spec, (field) => origins.locate(field));
  spec.guessed = readGuessed(root.get('guessed')?.items() ?? [], rootNode);
  return spec;
}
