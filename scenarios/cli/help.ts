export const HELP = `intranode: simulate MPI communication inside one compute node

Usage:
  intranode run [FILE] [options]     run a scenario (without FILE: the built-in broadcast comparison)
      --machine NAME|FILE            run on this machine instead of the scenario's (preset, machine
                                     .yaml, hwloc .xml, or 'host')
      --json | --csv                 machine-readable output instead of the table
      --breakdown                    add each algorithm's share of time per kind of step
      --seed S                       replace the scenario's seed
  intranode machines                 list the machine presets
  intranode machine show NAME|FILE   describe a machine
  intranode algorithms [OPERATION]   list operations, algorithms and their parameters
  intranode --help | --version

Exit codes: 0 success, 1 invalid input (scenario, machine file), 2 invalid command line,
3 internal error. The scenario format is described in docs/scenario-format.md.
`;
