// Why an operation on a file the user named failed, in the user's terms, for the readers
// (read-input-file.ts) and writers (write-output-file.ts) of such files alike.

/** The reason for `e`, a Node file-system error; `missing` says what ENOENT means to the caller (a
 *  reader lacks the file, a writer the folder to put it in). */
export function fileErrorReason(e: unknown, missing: string): string {
  const code = (e as { code?: string } | undefined)?.code;
  if (code === 'ENOENT') return missing;
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'ENOTDIR') return 'a part of its path is a file, not a folder';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'permission denied';
  if (code === 'ENOSPC') return 'no space left on the device';
  if (code === 'EEXIST') return 'a file of that name is in the way';
  return code ?? (e instanceof Error ? e.message : String(e));
}
