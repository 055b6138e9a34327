// Remembers which YAML node each built spec field came from, so an invariant broken in the built
// MachineSpec (found by validateMachine, which only knows spec paths) is reported at the line the
// user wrote. A compact entry (a package group, a link mesh) is the origin of everything it expands to.

import type { InputLocation } from '../../common/input-error.ts';
import type { YamlValue } from '../../common/yaml/value.ts';

export class Origins {
  private readonly bySpecPath = new Map<string, YamlValue>();
  private readonly missing = new Set<string>();

  constructor(private readonly root: YamlValue) {}

  set(specPath: string, node: YamlValue | undefined): void {
    if (node) this.bySpecPath.set(specPath, node);
  }

  /** A key the file may leave out (`links`): a problem with what it would hold is reported at the
   *  top of the file, naming the key, when the file has none. */
  setOptional(specPath: string, node: YamlValue | undefined): void {
    if (node) this.bySpecPath.set(specPath, node);
    else this.missing.add(specPath);
  }

  /** The location of the closest recorded ancestor of a spec path (`links[3].b` → `links[3]` → root). */
  locate(specPath: string): InputLocation {
    let path = specPath;
    while (path) {
      const node = this.bySpecPath.get(path);
      if (node) return node.location();
      if (this.missing.has(path)) return { ...this.root.location(), field: path };
      path = path.replace(/(\.[^.[\]]+|\[\d+\])$/, '');
      if (path === specPath) break;
      specPath = path;
    }
    return { ...this.root.location(), field: undefined };
  }
}
