// `sweep: { railShare: [...] }`: one table per share of each message between hosts sent on the
// first NIC, for every algorithm that splits with `rails: share`. Seed 002 finds its best split by
// varying that share; a sweep gives the curve without one algorithm entry per value. Every way the
// swept values could be dropped or mean nothing is an error at its field.
import type { YamlValue } from '../common/yaml/value.ts';
import type { HostsRequest } from './hosts.ts';
import type { ScenarioDocument } from './scenario-document.ts';
import type { ScenarioAlgorithm } from './scenario.ts';

/** The swept shares in the order written, or undefined when `railShare` is not swept. */
export function readRailShareSweep(
  doc: ScenarioDocument,
  algorithms: readonly ScenarioAlgorithm[],
  algorithmsField: YamlValue,
  hosts: HostsRequest | undefined,
): number[] | undefined {
  const items = doc.sweptOnly('railShare');
  if (!items) return undefined;
  const shares: number[] = [];
  for (const item of items) {
    const share = item.number('railShare');
    if (share < 0 || share > 1) throw item.error(`railShare must be between 0 and 1, got ${share}`);
    if (shares.includes(share)) throw item.error(`railShare ${share} is listed twice`);
    shares.push(share);
  }
  const first = items[0];
  if (!hosts || hosts.count < 2) {
    throw first.error(
      "sweep.railShare splits messages between hosts, and this scenario runs on one host (see 'hosts')",
    );
  }
  const entries = algorithmsField.items('algorithms');
  entries.forEach((entry) => {
    const given = entry.kind() === 'map' ? entry.entries().get('params') : undefined;
    const share = given?.kind() === 'map' ? given.entries().get('railShare') : undefined;
    if (share) throw share.error('railShare is swept (sweep.railShare); give it there only');
  });
  if (!algorithms.some((a) => a.params.rails === 'share')) {
    throw first.error(
      'sweep.railShare is read only by algorithms with rails: share, and no algorithm of this scenario has it',
    );
  }
  return shares;
}
