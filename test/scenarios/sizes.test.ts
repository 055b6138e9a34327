import { describe, expect, it } from 'vitest';
import {
  formatSize,
  MAX_RANGE_SIZES,
  normaliseSizes,
  parseSize,
  parseSizeRange,
  parseSizeSpec,
  SizeError,
} from '../../scenarios/sizes.ts';

describe('parseSize', () => {
  it('reads plain bytes and binary units', () => {
    expect(parseSize(4096)).toBe(4096);
    expect(parseSize('4096')).toBe(4096);
    expect(parseSize('17B')).toBe(17);
    expect(parseSize('64KiB')).toBe(65536);
    expect(parseSize('64K')).toBe(65536);
    expect(parseSize('64 KB')).toBe(65536);
    expect(parseSize('1.5MiB')).toBe(1572864);
    expect(parseSize('2gib')).toBe(2 * 1024 ** 3);
    expect(parseSize('0')).toBe(0);
  });

  it.each([
    ['-1', /negative/],
    ['-4KiB', /negative/],
    [-3, /negative/],
    ['1.3B', /whole number/],
    [2.5, /whole number/],
    ['12 parsecs', /unknown unit 'parsecs'/],
    ['', /not a size/],
    ['KiB', /not a size/],
    ['1e3', /not a size/],
    ['99999999999TiB', /too large/],
    [Infinity, /finite/],
  ])('rejects %s', (input, message) => {
    expect(() => parseSize(input)).toThrow(SizeError);
    expect(() => parseSize(input)).toThrow(message);
  });
});

describe('parseSizeRange', () => {
  it('expands geometric ranges, inclusive of the end', () => {
    expect(parseSizeRange('16KiB..128KiB x2')).toEqual([16384, 32768, 65536, 131072]);
    expect(parseSizeRange('1..100 x10')).toEqual([1, 10, 100]);
    expect(parseSizeRange('1KiB..4KiB')).toEqual([1024, 2048, 4096]);
    expect(parseSizeRange('1..8x2')).toEqual([1, 2, 4, 8]);
  });

  it('stops before the end when the progression overshoots it', () => {
    expect(parseSizeRange('3..20 x2')).toEqual([3, 6, 12]);
    expect(parseSizeRange('1KiB..10KiB +4KiB')).toEqual([1024, 5120, 9216]);
  });

  it('expands arithmetic ranges', () => {
    expect(parseSizeRange('1KiB..4KiB +1KiB')).toEqual([1024, 2048, 3072, 4096]);
    expect(parseSizeRange('0..2 +1')).toEqual([0, 1, 2]);
  });

  it('never stalls on a factor that rounds back to the same size', () => {
    expect(parseSizeRange('1..4 x1.2')).toEqual([1, 2, 3, 4]);
  });

  it('accepts a single-element range', () => {
    expect(parseSizeRange('4KiB..4KiB x2')).toEqual([4096]);
  });

  it.each([
    ['1MiB..1KiB x2', /empty/],
    ['1KiB..1MiB x1', /larger than 1/],
    ['1KiB..1MiB x0.5', /larger than 1/],
    ['1KiB..1MiB xq', /factor/],
    ['1KiB..1MiB +0', /step of 0/],
    ['0..1MiB x2', /cannot start at 0/],
    ['..1MiB', /not a size range/],
    ['1KiB..', /not a size range/],
    ['1KiB..2KiB ^2', /not a size range/],
    ['1KiB...4KiB', /'1KiB...4KiB' is not a size range/],
    ['-1KiB..1MiB', /negative/],
    ['1..1GiB +1', /more than/],
  ])('rejects %s', (input, message) => {
    expect(() => parseSizeRange(input)).toThrow(SizeError);
    expect(() => parseSizeRange(input)).toThrow(message);
  });

  it('caps the number of sizes', () => {
    expect(parseSizeRange(`1..${MAX_RANGE_SIZES} +1`)).toHaveLength(MAX_RANGE_SIZES);
  });
});

describe('size lists', () => {
  it('parses single sizes and ranges alike', () => {
    expect(parseSizeSpec('64KiB')).toEqual([65536]);
    expect(parseSizeSpec(8)).toEqual([8]);
    expect(parseSizeSpec('1..4')).toEqual([1, 2, 4]);
  });

  it('sorts and removes repeats', () => {
    expect(normaliseSizes([4096, 1024, 4096, 2048])).toEqual([1024, 2048, 4096]);
  });

  it('formats sizes with the largest exact unit', () => {
    expect(formatSize(262144)).toBe('256KiB');
    expect(formatSize(3 * 1024 ** 2)).toBe('3MiB');
    expect(formatSize(1000)).toBe('1000B');
    expect(formatSize(0)).toBe('0B');
  });
});
