// Intel model strings carry the nominal clock: "Intel(R) Xeon(R) CPU X5650 @ 2.67GHz".

/** Clock in GHz named by a CPU model string, if it names one. */
export function frequencyFromModel(model: string): number | undefined {
  const m = /@\s*([0-9]+(?:\.[0-9]+)?)\s*(GHz|MHz)/i.exec(model);
  if (!m) return undefined;
  const value = Number(m[1]) / (m[2].toLowerCase() === 'mhz' ? 1000 : 1);
  return value > 0 && value < 100 ? value : undefined;
}
