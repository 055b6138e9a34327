// `intranode machines`: the presets and what each is. It loads no more than the list needs, since it
// is what a new user runs first.
import { alignColumns } from '../report/columns.ts';
import type { CliEnv } from './env.ts';

export async function machinesCommand(env: CliEnv): Promise<number> {
  const rows = (await env.listPresets()).map((p) => [p.name, p.description]);
  env.stdout(`${alignColumns(['# Preset', 'Description'], rows, 2).join('\n')}\n`);
  return 0;
}
