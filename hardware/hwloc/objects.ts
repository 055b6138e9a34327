// hwloc objects read from XML elements, with the v1 and v2 type names folded into one vocabulary,
// and typed attribute access that reports file:line:column for a malformed value.
import { didYouMean, InputError } from '../../common/input-error.ts';
import { parseBitmap } from './bitmap.ts';
import type { XmlElement } from './xml.ts';

export type ObjectRole =
  'machine' | 'package' | 'numa' | 'core' | 'pu' | 'cache' | 'bridge' | 'pcidev' | 'osdev' | 'container';

export interface HwObject {
  type: string;
  role: ObjectRole;
  el: XmlElement;
  parent?: HwObject;
  children: HwObject[];
  /** <info name= value=> pairs attached to the object. */
  infos: Map<string, string>;
}

/** The object types hwloc 1.x and 2.x write (hwloc's topology-xml.c), with what each is here. Group,
 *  Die and Misc, and any type a newer hwloc adds, are transparent containers. */
const ROLES: Readonly<Record<string, ObjectRole>> = {
  Machine: 'machine',
  System: 'machine',
  Package: 'package',
  Socket: 'package',
  NUMANode: 'numa',
  Node: 'numa',
  Core: 'core',
  PU: 'pu',
  Cache: 'cache',
  MemCache: 'cache',
  Bridge: 'bridge',
  PCIDev: 'pcidev',
  OSDev: 'osdev',
  Group: 'container',
  Die: 'container',
  Misc: 'container',
};

/** hwloc 2's per-level caches: L1Cache, L2iCache, L3Cache... */
const LEVEL_CACHE = /^L\d+[iud]?Cache$/;

export function roleOf(type: string): ObjectRole {
  return Object.hasOwn(ROLES, type) ? ROLES[type] : LEVEL_CACHE.test(type) ? 'cache' : 'container';
}

/** What a misspelt type is compared with: every named type and the level caches hwloc writes. */
const KNOWN_TYPES = [
  ...Object.keys(ROLES),
  ...[1, 2, 3, 4, 5].flatMap((level) => [`L${level}Cache`, `L${level}iCache`]),
];

/** Builds the object tree under `el` (an <object> element); other child elements are kept on `el`. */
export function buildObject(el: XmlElement, file: string, parent?: HwObject): HwObject {
  const type = el.attrs.get('type');
  if (type === undefined) throw new InputError('<object> without a type attribute', at(el, file));
  // A type a letter or two from a known one is a typo, and refused; any other unknown type is a
  // newer hwloc's, and a container.
  if (roleOf(type) === 'container' && !Object.hasOwn(ROLES, type)) {
    const suggestion = didYouMean(type, KNOWN_TYPES);
    if (suggestion)
      throw new InputError(
        `unknown object type '${type}' (did you mean '${suggestion}'?)`,
        at(el, file, fieldName(el, 'type')),
      );
  }
  const obj: HwObject = { type, role: roleOf(type), el, parent, children: [], infos: new Map() };
  for (const child of el.children) {
    if (child.name === 'object') obj.children.push(buildObject(child, file, obj));
    else if (child.name === 'info') {
      const name = child.attrs.get('name');
      if (name !== undefined) obj.infos.set(name, child.attrs.get('value') ?? '');
    }
  }
  return obj;
}

export function at(el: XmlElement, file: string, field?: string) {
  return { file, line: el.line, column: el.column, ...(field ? { field } : {}) };
}

/** Attribute accessors bound to one file, so every error names it. */
export class Attrs {
  constructor(readonly file: string) {}

  /** A non-negative integer attribute, or undefined when absent. */
  int(el: XmlElement, name: string): number | undefined {
    const raw = el.attrs.get(name);
    if (raw === undefined) return undefined;
    const text = raw.trim();
    const value = /^\d+$/.test(text) ? Number(text) : /^0x[0-9a-fA-F]+$/.test(text) ? parseInt(text, 16) : NaN;
    if (!Number.isSafeInteger(value)) {
      throw new InputError(`${name}="${raw}" is not a non-negative integer`, at(el, this.file, fieldName(el, name)));
    }
    return value;
  }

  /** A finite number attribute, or undefined when absent. */
  num(el: XmlElement, name: string): number | undefined {
    const raw = el.attrs.get(name);
    if (raw === undefined) return undefined;
    const value = raw.trim() === '' ? NaN : Number(raw);
    if (!Number.isFinite(value))
      throw new InputError(`${name}="${raw}" is not a number`, at(el, this.file, fieldName(el, name)));
    return value;
  }

  bitmap(el: XmlElement, name: string): number[] | undefined {
    const raw = el.attrs.get(name);
    if (raw === undefined) return undefined;
    const bits = parseBitmap(raw);
    if (!bits)
      throw new InputError(
        `${name}="${raw}" is not an hwloc bitmap (e.g. "0x0000000f")`,
        at(el, this.file, fieldName(el, name)),
      );
    return bits;
  }

  /** Whitespace-separated numbers in an element's text (distance matrices). */
  numbers(el: XmlElement, what: string): number[] {
    const words = el.text
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '');
    return words.map((w) => {
      const value = Number(w);
      if (!Number.isFinite(value))
        throw new InputError(`"${w}" in <${el.name}> is not a number`, at(el, this.file, what));
      return value;
    });
  }
}

function fieldName(el: XmlElement, name: string): string {
  const type = el.attrs.get('type');
  return type ? `${el.name}[type=${type}].${name}` : `${el.name}.${name}`;
}
