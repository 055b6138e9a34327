// The names a trace gives the points of a sweep: enough to tell each from every other point of the
// same run, and to find it in the report's tables: the column's label (two columns may run one
// algorithm with different parameters), the size, the table's machine (with its swept parameters)
// and ranks, and each other axis the scenario sweeps.
import { formatBytes } from '../../common/bytes.ts';
import type { Table } from '../expand.ts';
import { parametersText, placementName, type Scenario } from '../scenario.ts';

/** Every point's name, in sweep order (table by table, size by size, column by column). */
export function pointNames(s: Scenario, tables: readonly Table[]): string[] {
  return tables.flatMap((t) => {
    const parameters = t.machine.parameters ? ` (${parametersText(t.machine.parameters)})` : '';
    const axes = [
      ...(s.placements.length > 1 ? [`placement ${placementName(t.placement)}`] : []),
      ...(s.rootSweep ? [`root ${t.root}`] : []),
      ...(t.railShare !== undefined ? [`rail share ${t.railShare}`] : []),
      ...(s.seedSweep ? [`seed ${t.seed}`] : []),
    ];
    const where = `on ${t.machine.spec.name}${parameters}, ${t.ranks} ranks${axes.map((a) => `, ${a}`).join('')}`;
    return t.rows.flatMap((row) =>
      row.cells.map((cell) => `${cell.algorithm.label} ${formatBytes(row.bytes)} ${where}`),
    );
  });
}
