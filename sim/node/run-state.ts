// State the layers above keep for one run (the kernel's drivers, registration caches, transport
// queues): each piece is named by a typed key that also creates it, so the World holds pieces whose
// types it does not know while every reader gets them typed, and nothing outlives the run.
import type { World } from './world.ts';

export class RunState<T> {
  readonly name: string;
  readonly create: (world: World) => T;

  constructor(name: string, create: (world: World) => T) {
    this.name = name;
    this.create = create;
  }
}

/** The entry of `key` in `map`, created on first use. */
export function lazily<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}
