import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseName, dirName, fileStem, resolvePath } from '../../common/paths.ts';

// The loaders' path helpers run in the browser too; on POSIX paths they agree with node:path.
const PATHS = ['s.yaml', 'a/s.yaml', '/a/b/s.yaml', '/s.yaml', 'a/b/', 'a/.hidden', 'x.tar.gz', '../up/s.yaml'];

describe('path helpers', () => {
  it.each(PATHS)('agree with node:path on %s', (p) => {
    expect(baseName(p)).toBe(posix.basename(p));
    expect(dirName(p)).toBe(posix.dirname(p));
    expect(fileStem(p)).toBe(posix.basename(p, posix.extname(p)));
    expect(resolvePath('/home/u', p)).toBe(posix.resolve('/home/u', p));
  });
});
