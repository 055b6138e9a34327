// `intranode merge PART...`: the report of a sweep run as shards (`intranode run FILE --shard I/N`),
// byte for byte the one a single run prints.
import { readInputFile } from '../../common/read-input-file.ts';
import { resolve } from 'node:path';
import { InputError } from '../../common/input-error.ts';
import { runScenarioBatched } from '../run.ts';
import { mergeShards, type NamedShard } from '../shard/merge.ts';
import { parseShardFile } from '../shard/shard-file.ts';
import type { MergeArgs } from './args.ts';
import type { CliEnv } from './env.ts';
import { formatReport, loadRunScenario, scenarioIdentity } from './run-command.ts';

export async function mergeCommand(args: MergeArgs, env: CliEnv): Promise<number> {
  const shards: NamedShard[] = args.files.map((path) => ({ path, file: parseShardFile(readShard(path, env), path) }));
  const outcomes = mergeShards(shards);
  // The report is built from the scenario as the shards loaded it, so it must still be that one.
  const [first] = shards;
  const scenario = await loadRunScenario(first.file.run, env);
  if (scenarioIdentity(scenario, first.file.run) !== first.file.identity)
    throw new InputError(`the scenario ${first.file.run.file} (or a machine it names) changed since the shards ran`, {
      file: first.path,
    });
  // Every outcome is settled as a single run settles it, so n/a cells and their notes are the same.
  const result = await runScenarioBatched(scenario, (points, settle) => {
    points.forEach((_, i) => settle(i, outcomes[i]));
    return Promise.resolve();
  });
  env.stdout(formatReport(result, args));
  return 0;
}

function readShard(path: string, env: CliEnv): string {
  return readInputFile(resolve(env.cwd, path), 'the shard file', path);
}
