export const HELP = `intranode: simulate MPI communication inside one compute node

Usage:
  intranode run [FILE] [options]     run a scenario (without FILE: the built-in broadcast comparison)
      --machine NAME|FILE            run on this machine instead of the scenario's (preset, machine
                                     .yaml, hwloc .xml, or 'host')
      --hwloc-machine N              with an hwloc file holding several machines: use machine N (from 0)
      --format table|json|csv|imb    output: OSU-style table (default), JSON, CSV, or IMB-style blocks
      --json | --csv                 short for --format json | --format csv
      --breakdown                    add each algorithm's share of time per kind of step
      --memory                       add the memory the MPI library allocated beyond the
                                     operation's buffers (by the end of the first call)
      --seed S                       replace the scenario's seed (placement: random, skew)
      --strict                       fail when an algorithm cannot run on the machine (default: n/a)
      --trains                       let a steady pipeline that nothing else disturbs advance many
                                     chunks at once (same results to rounding; default: one by one)
      --jobs N                       run N points at once, here and on N-1 worker threads (default:
                                     the number of cores; 1 runs them one after another here)
      --shard I/N                    run only shard I of N (from 1: the points whose index, from 0,
                                     is I-1 modulo N) and print its partial results as JSON
      --exact                        simulate every call, also those that start in the state of an
                                     earlier call (by default they are taken from it; see the note
                                     under each table)
      --trace FILE                   also write the run's trace to FILE (Chrome trace event format,
                                     opens in Perfetto); the points then run one after another in
                                     this process (not with --jobs above 1)
  intranode merge PART... [options]  print the report of a sweep run as shards, as one run prints it
      --format, --json, --csv, --breakdown, --memory
                                     as for run
  intranode slurm FILE --shards N [options]
                                     write an sbatch script running the sweep as a SLURM job array
                                     of N shards, whose last task merges them into one report
      --out FILE                     the script (default: standard output)
      --dir DIR                      shards, task logs and the report (default: NAME-shards; made now)
      --cpus N                       CPUs per task, points run at once in a task (default 1)
      --partition P, --time LIMIT    as sbatch takes them
      --format, --json, --csv, --breakdown, --memory
                                     the report's format, as for run
      --machine, --seed, --strict, --exact, --trains, --hwloc-machine
                                     as for run, given to every shard
  intranode machines                 list the machine presets
  intranode machine show NAME|FILE [--hwloc-machine N]
                                     describe a machine
  intranode algorithms [OPERATION]   list operations, algorithms and their parameters
  intranode reproduce [options]      run the seed papers' claims; one row per claim, PASS, FAIL or INPUT
      --only ID|PAPER                one claim, or one paper's claims (000, 001, ...)
      --fast                         only the claims marked fast (what CI runs)
      --json                         the table as JSON
      --strict                       exit 4 when a claim expected to pass fails
      --report DIR                   also write DIR/README.md with the table and one plot per figure
      --skip ID|FILE[,...]           leave out these claims, or the claims of these scenario files
                                     (slow ones); the report lists them as not run
      --jobs N                       run N points at once, here and on N-1 worker threads (default:
                                     the number of cores; 1 runs them one after another here)
  intranode viz [--port N] [--host ADDRESS]
                                     build the browser visualizer if needed and serve it on
                                     localhost (port 5183 by default); prints the address, opens nothing
  intranode calibrate [options]      measure this host natively (native-validate/, built with cc) and
                                     fit the model's constants; writes a machine file
      --out FILE                     the machine file (default host-calibrated.yaml)
      --cores LIST                   cores to use, e.g. 0-3 (default: all); --iterations N, --json
      --off-cache SIZE               cold runs rotate each rank's buffers over more than twice this
                                     (IMB's -off_cache cache size; default: the largest cache sysfs
                                     lists for cpu0, else 32 MiB)
  intranode validate [options]       calibrate (or take --machine FILE), then measure a test set
                                     natively and print measured, predicted and error per case
      --machine FILE                 a calibrated machine file instead of calibrating now
      --hwloc-machine N              with an hwloc file holding several machines: use machine N
      --ranks N, --sizes LIST, --cores LIST, --iterations N, --json
                                     (at most 64 sizes of at most 1 GiB; iterations up to 1,000,000)
      --out FILE                     also save the machine it calibrates (not with --machine)
      --rounds N                     run the test set N times; each case reports its fastest round
                                     among those run with the cores placed as the machine describes,
                                     else in the host's other placement, predicted there (3)
      --off-cache SIZE               as calibrate's, for the cold training and the test cases
      --mpi                          also run the collectives through Open MPI (mpicc, mpirun)
      --allow-run-as-root            let mpirun run as root (with --mpi)
  intranode --help (-h, or help) | --version (-V)

Each option is given once (reproduce's --skip may repeat). A value starting with '-' is written
--option=VALUE (--seed=-5).

Exit codes: 0 success, 1 invalid input (scenario, machine file), 2 invalid command line,
3 internal error, 4 a claim expected to pass failed (reproduce --strict), 5 the native backend
failed (calibrate, validate: no C compiler, a rank failed, Open MPI missing for --mpi). The scenario format is described in docs/scenario-format.md.
`;
