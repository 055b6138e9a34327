// Lookups of what a user typed in a table written as an object literal. `name in table` and
// `table[name]` also find what every object inherits (`toString`, `constructor`), so a unit, entity
// or model named like one would be taken as known; only the table's own keys count.

/** The table's entry for `key`, or undefined when the table does not itself define it. */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
