// hwloc bitmaps (cpuset, nodeset) as printed in XML: comma-separated hexadecimal words of 32 bits,
// most significant first, an empty word meaning zero: "0x00000410,0x41041041", "0x3,,0x0".
// "0xf...f" marks an infinitely set prefix (a full machine); it adds no finite bits here.

/** The set bits, ascending; undefined when the text is not an hwloc bitmap. */
export function parseBitmap(text: string): number[] | undefined {
  const words = text.trim().split(',');
  const bits: number[] = [];
  for (let w = 0; w < words.length; w++) {
    const word = words[w].trim();
    const base = (words.length - 1 - w) * 32;
    if (word === '' || word === '0x0' || word === '0x' || word === 'f...f' || word === '0xf...f') continue;
    const m = /^0x([0-9a-fA-F]{1,8})$/.exec(word);
    if (!m) return undefined;
    const value = parseInt(m[1], 16);
    for (let b = 0; b < 32; b++) if (value & (2 ** b)) bits.push(base + b);
  }
  return bits.sort((a, b) => a - b);
}
