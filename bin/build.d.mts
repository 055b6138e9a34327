// Types of build.mjs for the TypeScript that imports it (the test helpers that start worker
// threads from the current build).

/** The directory the current sources' build lives in (dist/<fingerprint>), and whether it is complete. */
export function currentBuild(): { dir: string; files: string[]; ready: boolean };

/** Builds the current sources unless already built; returns the build's directory. */
export function ensureBuild(): Promise<string>;

/** Records that this process runs from the build in `dir` until it exits, so that a newer build
 *  does not delete it; returns `dir`. */
export function markInUse(dir: string): string;
