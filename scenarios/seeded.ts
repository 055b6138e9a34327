// The scenario's seed drives every random choice a scenario makes: which cores a `placement:
// random` takes, and each rank's arrival under `skew`. Each use draws from its own stream, so
// adding draws to one (more ranks, more iterations) leaves the other's numbers as they were.
import seedrandom from 'seedrandom';

export type Random = () => number;

/** A reproducible uniform [0, 1) stream for one use (`purpose`) of `seed`. */
export function seededStream(seed: string, purpose: 'placement' | 'skew'): Random {
  // Alea, as the engine's own stream (sim/engine/simulation.ts): fast and ample for simulation.
  return seedrandom.alea(`${seed}/${purpose}`);
}

/** Fisher-Yates: every order equally likely. */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
