// The built-in default scenario is Ma et al.'s broadcast on Dancer: eight ranks and KNEM. Run on
// `--machine host`, it adapts to whatever Linux host it finds instead of failing: one rank per core,
// and the linear single-copy broadcast over the mechanism the host has (KNEM if loaded, else CMA,
// else none). Every substitution is returned as a note for the user.
import type { MachineSpec } from '../hardware/spec.ts';

export interface AdaptedScenario {
  text: string;
  notes: string[];
}

export function adaptDefaultScenario(text: string, machine: MachineSpec): AdaptedScenario {
  const notes: string[] = [];
  const cores = machine.cores.length;
  const ranks = /^ranks: (\d+)$/m.exec(text);
  if (ranks && Number(ranks[1]) !== cores) {
    text = text.replace(/^ranks: \d+$/m, `ranks: ${cores}`);
    notes.push(`default scenario on host: ${cores} ranks, one per core, instead of ${ranks[1]}`);
  }
  const { knem, cma } = machine.kernel.mechanisms;
  if (!knem && /^ {2}- knem-linear$/m.test(text)) {
    if (cma) {
      text = text.replace(/^ {2}- knem-linear$/m, '  - cma-linear');
      notes.push('default scenario on host: cma-linear instead of knem-linear (no KNEM module loaded; CMA present)');
    } else {
      text = text.replace(/^ {2}- knem-linear\n/m, '');
      notes.push('default scenario on host: knem-linear left out (neither KNEM nor CMA on this host)');
    }
  }
  return { text, notes };
}
