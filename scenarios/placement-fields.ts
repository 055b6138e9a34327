// Where a scenario puts its ranks: `placement` (a named order, or a list of cores and hardware
// threads) and `smt`, read from the file and checked against every machine and rank count.
import { didYouMean } from '../common/input-error.ts';
import type { YamlValue } from '../common/yaml/value.ts';
import type { LocatedMachine } from './loader.ts';
import { placeRanks, PlacementError } from './placement.ts';
import { rankCount, type PlacedOn, type PlacementSpec, type RankCount } from './scenario.ts';

/** One entry of a core list: a core index, or `{ core: C, thread: T }` for one of its hardware threads. */
function readPlacedOn(item: YamlValue): PlacedOn {
  if (item.kind() !== 'map') return item.integer(0, 'a core index');
  const fields = item.entries('a hardware thread', ['core', 'thread']);
  const core = fields.get('core');
  const thread = fields.get('thread');
  if (!core?.present || !thread?.present)
    throw item.error("a hardware thread needs both 'core' and 'thread', e.g. { core: 3, thread: 1 }");
  return { core: core.integer(0, 'core'), thread: thread.integer(0, 'thread') };
}

export function readSmt(field: YamlValue | undefined): boolean {
  if (!field) return false;
  const v = field.scalar();
  if (v === 'on' || v === true) return true;
  if (v === 'off' || v === false) return false;
  throw field.error(`smt must be 'on' or 'off', got ${field.describe()}`);
}

/** `smt: on` means something only on a machine whose cores have several hardware threads. */
export function checkSmt(
  axes: { machines: LocatedMachine[]; placements: { value: PlacementSpec }[]; ranks: { value: RankCount }[] },
  field: YamlValue,
): void {
  // Core lists name their threads themselves: smt: on would change nothing for them.
  if (axes.placements.every((p) => typeof p.value !== 'string') && axes.ranks.every((r) => r.value !== 'all'))
    throw field.error(
      'smt: on changes only compact, scatter, random and ranks: all, but the placement is a core list; name hardware threads in it as { core: C, thread: T } instead',
    );
  for (const m of axes.machines) {
    if (m.choice.spec.cores.some((c) => c.threads > 1)) continue;
    throw field.error(
      `smt: on, but machine '${m.choice.ref}' has one hardware thread per core; ranks can only go on its cores (smt: off)`,
    );
  }
}

export function readPlacement(field: YamlValue): PlacementSpec {
  if (field.kind() === 'seq') {
    const cores = field.items('placement').map(readPlacedOn);
    if (cores.length === 0) throw field.error('the core list is empty');
    return cores;
  }
  const v = field.scalar();
  if (v === 'compact' || v === 'scatter' || v === 'random') return v;
  const hint = typeof v === 'string' ? didYouMean(v, ['compact', 'scatter', 'random']) : undefined;
  throw field.error(
    `placement must be compact, scatter, random or a list of cores such as [0, 4, 8], got ${field.describe()}${hint ? ` (did you mean '${hint}'?)` : ''}`,
  );
}

export function checkPlacement(
  m: LocatedMachine,
  p: { value: PlacementSpec; field?: YamlValue },
  r: { value: RankCount; field?: YamlValue },
  root: YamlValue,
  several: boolean,
  smt: boolean,
): void {
  try {
    placeRanks(m.choice.spec, rankCount(r.value, m.choice.spec, smt), p.value, '', smt);
  } catch (e) {
    if (!(e instanceof PlacementError)) throw e;
    const where =
      e.index !== undefined && p.field
        ? p.field.items('placement')[e.index]
        : typeof p.value === 'string'
          ? r.field
          : p.field;
    throw (where ?? m.field ?? root).error(several ? `on machine '${m.choice.ref}': ${e.message}` : e.message);
  }
}
