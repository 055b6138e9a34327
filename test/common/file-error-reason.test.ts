// The reasons a file a user named could not be read or written, in the user's words.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileErrorReason } from '../../common/file-error-reason.ts';

/** The error `op` throws. */
function errorOf(op: () => unknown): unknown {
  try {
    op();
  } catch (e) {
    return e;
  }
  throw new Error('expected the operation to fail');
}

describe('why a file operation failed', () => {
  it('says it in words for the failures a user can cause', () => {
    const dir = mkdtempSync(join(tmpdir(), 'intranode-reason-'));
    writeFileSync(join(dir, 'file'), '');
    expect(
      fileErrorReason(
        errorOf(() => mkdirSync(join(dir, 'file'))),
        'no such folder',
      ),
    ).toBe('a file of that name is in the way');
    expect(
      fileErrorReason(
        errorOf(() => writeFileSync(join(dir, 'no', 'x'), '')),
        'no such folder',
      ),
    ).toBe('no such folder');
    expect(
      fileErrorReason(
        errorOf(() => writeFileSync(dir, '')),
        'no such folder',
      ),
    ).toBe('it is a folder, not a file');
    expect(
      fileErrorReason(
        errorOf(() => writeFileSync(join(dir, 'file', 'x'), '')),
        'no such folder',
      ),
    ).toBe('a part of its path is a file, not a folder');
    expect(fileErrorReason({ code: 'ENOSPC' }, 'no such folder')).toBe('no space left on the device');
  });
});
