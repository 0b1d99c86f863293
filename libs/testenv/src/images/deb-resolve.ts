import type { DebPackage } from './deb-control.ts';
import { compareBytes } from './layer-entries.ts';

/** What {@link resolveClosure} chose. */
export interface Closure {
  /** The packages to unpack, sorted by name. */
  readonly packages: readonly DebPackage[];
  /** The excluded names some clause asked for, sorted: shows which exclusions matter. */
  readonly excludedHits: readonly string[];
}

/**
 * The dependency closure of `roots` over `index` (name → candidate), following `Pre-Depends` and `Depends`
 * only. Per clause: when any alternative is in `exclusions` the clause is skipped; otherwise the first
 * alternative that is a real package in `index` is taken. Throws when a root is unknown or excluded, or when no
 * alternative of a clause exists (a virtual package needs an explicit real alternative or an exclusion). Pure.
 */
export function resolveClosure(
  roots: readonly string[],
  index: ReadonlyMap<string, DebPackage>,
  exclusions: ReadonlyMap<string, string>,
): Closure {
  const chosen = new Map<string, DebPackage>();
  const hits = new Set<string>();
  const queue: { name: string; neededBy: string }[] = roots.map((name) => ({ name, neededBy: '(requested)' }));
  for (const root of roots) {
    if (exclusions.has(root)) throw new Error(`debian: "${root}" is requested but excluded: ${exclusions.get(root) ?? ''}`);
  }
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (chosen.has(next.name)) continue;
    const pkg = index.get(next.name);
    if (pkg === undefined) throw new Error(`debian: no package "${next.name}" (needed by ${next.neededBy}) in the apt index`);
    chosen.set(pkg.name, pkg);
    for (const clause of pkg.depends) {
      const excluded = clause.filter((alt) => exclusions.has(alt));
      if (excluded.length > 0) {
        for (const alt of excluded) hits.add(alt);
        continue;
      }
      const alt = clause.find((name) => index.has(name));
      if (alt === undefined) {
        throw new Error(`debian: no alternative of "${clause.join(' | ')}" (needed by ${pkg.name}) is a real package; add one or an exclusion`);
      }
      queue.push({ name: alt, neededBy: pkg.name });
    }
  }
  return {
    packages: [...chosen.values()].sort((a, b) => compareBytes(a.name, b.name)),
    excludedHits: [...hits].sort(compareBytes),
  };
}
