// Memory of a machine-parameter sweep: 1,000 variants of the largest preset (epyc-genoa, 192 cores,
// 408 caches), built as a scenario builds them (hardware/variant/, validated), against 1,000 plain
// copies with the same change. Run with `node --expose-gc --import tsx bench/machine-variants.ts`;
// prints the heap each set adds while it is held. Reported, never asserted (tests do not measure).
import { loadPreset } from '../hardware/presets.ts';
import type { MachineSpec } from '../hardware/spec.ts';
import { validateMachine } from '../hardware/validate.ts';
import { MachineVariants, toSpec } from '../hardware/variant/machine-variant.ts';
import { resolvePath } from '../hardware/variant/parameter-path.ts';

const COUNT = 1000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

function heapAfter(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

function measure(build: () => unknown[]): number {
  const before = heapAfter();
  const held = build();
  const after = heapAfter();
  if (held.length !== COUNT) throw new Error('lost variants');
  return (after - before) / COUNT;
}

const base = loadPreset('epyc-genoa');
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Per variant held: shared variants as a scenario holds them, and plain copies with the same change. */
function compare(path: string): void {
  const leaves = resolvePath(base, path);
  const value = (i: number) => 1 + i;
  const shared = measure(() => {
    const variants = new MachineVariants(base);
    return Array.from({ length: COUNT }, (_, i) => {
      const spec = toSpec(variants.variant(leaves.map((l) => ({ steps: l.steps, value: value(i) }))));
      validateMachine(spec);
      return spec;
    });
  });
  const copies = measure(() =>
    Array.from({ length: COUNT }, (_, i) => {
      const spec: MachineSpec = structuredClone(base);
      for (const l of leaves) {
        const parent = l.steps.slice(0, -1).reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], spec);
        (parent as Record<string | number, unknown>)[l.steps.at(-1)!] = value(i);
      }
      return spec;
    }),
  );
  console.log(`${path} (${leaves.length} leaves), ${COUNT} variants held:`);
  console.log(
    `  shared variants: ${kib(shared)} per variant; plain copies (structuredClone): ${kib(copies)} per variant`,
  );
}

console.log(`epyc-genoa (${base.cores.length} cores, ${base.caches.length} caches)`);
compare('numaNodes.*.bandwidth');
compare('links.*.latencyNs');
compare('caches.*.sizeBytes');
