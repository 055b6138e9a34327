// The built-in default scenario is Ma et al.'s broadcast on Dancer: eight ranks and KNEM. Run on
// another machine (`intranode run --machine M`, no scenario file), it adapts instead of failing.
// On `host`, whatever Linux host it finds, it takes one rank per core; on a preset, a machine file
// (one `intranode calibrate` wrote) or an hwloc export, it keeps its eight ranks where they fit and
// takes one per core where they do not. Either way the linear single-copy broadcast runs over the
// mechanism the machine has (KNEM if loaded, else CMA, else none). Every substitution is returned
// as a note for the user.
import type { MachineSpec } from '../hardware/spec.ts';

export interface AdaptedScenario {
  text: string;
  notes: string[];
}

export interface AdaptOptions {
  /** How the notes name the machine ('host', or the reference the user gave). */
  name: string;
  /** One rank per core even where the scenario's ranks fit (the host: use all of it). */
  everyCore: boolean;
}

export function adaptDefaultScenario(
  text: string,
  machine: MachineSpec,
  opts: AdaptOptions = { name: 'host', everyCore: true },
): AdaptedScenario {
  const notes: string[] = [];
  const changes: string[] = [];
  const where = opts.name === 'host' ? 'host' : `machine '${opts.name}'`;
  const on = `default scenario on ${where}`;
  const cores = machine.cores.length;
  const ranks = /^ranks: (\d+)$/m.exec(text);
  if (ranks && Number(ranks[1]) !== cores && (opts.everyCore || Number(ranks[1]) > cores)) {
    text = text.replace(/^ranks: \d+$/m, `ranks: ${cores}`);
    notes.push(`${on}: ${cores} ranks, one per core, instead of ${ranks[1]}`);
    changes.push(`${cores} ranks`);
  }
  const { knem, cma } = machine.kernel.mechanisms;
  if (!knem && /^ {2}- knem-linear$/m.test(text)) {
    if (cma) {
      text = text.replace(/^ {2}- knem-linear$/m, '  - cma-linear');
      notes.push(`${on}: cma-linear instead of knem-linear (no KNEM module loaded; CMA present)`);
      changes.push('linear CMA for linear KNEM');
    } else {
      text = text.replace(/^ {2}- knem-linear\n/m, '');
      notes.push(`${on}: knem-linear left out (neither KNEM nor CMA on this machine)`);
      changes.push('no linear single-copy broadcast');
    }
  }
  // The description the report prints says what was run, not what the file says of Dancer.
  if (changes.length > 0)
    text = text.replace(
      /^description: (.*)$/m,
      // Double-quoted, as JSON writes it: valid YAML whatever the machine's name holds.
      (_, d: string) => `description: ${JSON.stringify(`${d}; on ${where}: ${changes.join(', ')}`)}`,
    );
  return { text, notes };
}
