// The texts the browser cannot read from disk, bundled at build time: every preset machine file
// and the scenario files shipped with the simulator.

function byName(files: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, text] of Object.entries(files)) out[path.slice(path.lastIndexOf('/') + 1, -'.yaml'.length)] = text;
  return out;
}

export const PRESETS = byName(
  import.meta.glob<string>('../../hardware/presets/*.yaml', { query: '?raw', import: 'default', eager: true }),
);

export const SCENARIOS = byName(
  import.meta.glob<string>('../../scenarios/files/*.yaml', { query: '?raw', import: 'default', eager: true }),
);

export const DEFAULT_SCENARIO = 'default';
