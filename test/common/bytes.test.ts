import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../common/bytes.ts';

describe('formatBytes', () => {
  it('writes whole numbers of the largest unit reached', () => {
    expect(formatBytes(0)).toBe('0B');
    expect(formatBytes(1000)).toBe('1000B');
    expect(formatBytes(32 * 1024, { space: true })).toBe('32 KiB');
    expect(formatBytes(3 * 1024 ** 2)).toBe('3MiB');
    expect(formatBytes(2 * 1024 ** 4)).toBe('2TiB');
    expect(formatBytes(4096 * 1024 ** 4)).toBe('4096TiB');
  });

  it('rounds a count that is not a whole number of that unit to three significant digits', () => {
    // 32464036 KiB and 31728 MiB, as sysfs and hwloc report two hosts' memory: both in GiB now.
    expect(formatBytes(32464036 * 1024, { space: true })).toBe('31 GiB');
    expect(formatBytes(31728 * 1024 ** 2, { space: true })).toBe('31 GiB');
    expect(formatBytes(4810956 * 1024, { space: true })).toBe('4.59 GiB');
    expect(formatBytes(1536)).toBe('1.5KiB');
  });

  it('keeps the exact spelling when asked, for values that are read back', () => {
    expect(formatBytes(1536, { exact: true })).toBe('1536B');
    expect(formatBytes(4810956 * 1024, { exact: true, space: true })).toBe('4810956 KiB');
    expect(formatBytes(262144, { exact: true })).toBe('256KiB');
  });
});
