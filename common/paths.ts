// The little path arithmetic the loaders need, without node:path, so they also run in a browser
// (the visualizer's worker). POSIX paths, as on the machines the simulator models; the CLI still
// reads files through node:fs in the modules that do the reading.

/** The last component of `path`. */
export function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** The last component without its extension: `dir/s.yaml` gives `s`. */
export function fileStem(path: string): string {
  const base = baseName(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** The folder of `path` ('.' for a bare name, '/' for a file at the root). */
export function dirName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  if (slash < 0) return '.';
  return slash === 0 ? '/' : trimmed.slice(0, slash);
}

/** `path` taken from `base` unless absolute, with `.` and `..` resolved. */
export function resolvePath(base: string, path: string): string {
  const joined = path.startsWith('/') ? path : `${base}/${path}`;
  const parts: string[] = [];
  for (const part of joined.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `${joined.startsWith('/') ? '/' : ''}${parts.join('/')}` || '.';
}

/** The process's working directory where there is one (Node), '/' where there is none (a browser). */
export function workingDir(): string {
  return typeof process !== 'undefined' && typeof process.cwd === 'function' ? process.cwd() : '/';
}

/** Whether a machine reference names an hwloc XML export (by its extension, as the resolver reads
 *  it); `--hwloc-machine` means something only for such a file. */
export function isHwlocExport(ref: string): boolean {
  return /\.xml$/i.test(ref.trim());
}
