import type { ListScope, ResourceType } from '../client/resource-type.ts';

/** What one informer of a kind holds: the objects matching its selectors (absent: all of them). */
export type InformerScope = Pick<ListScope, 'labelSelector' | 'fieldSelector'>;

/**
 * The key of a kind's one informer in a cache: group, version, plural, and `#metadata` for a metadata-only one (so a
 * kind may have one full and one metadata-only informer, as controller-runtime keeps separate caches for them). Pure.
 */
export function informerId(type: ResourceType): string {
  return `${type.group}/${type.version}/${type.plural}${type.projection === 'metadata' ? '#metadata' : ''}`;
}

/** The name an informer goes by in health reports and errors: the plural, `secrets(metadata)` for metadata-only. Pure. */
export function informerName(type: ResourceType): string {
  return type.projection === 'metadata' ? `${type.plural}(metadata)` : type.plural;
}

/** True when both scopes select the same objects (the same selector strings; absent equals empty). Pure. */
export function sameScope(a: InformerScope, b: InformerScope): boolean {
  return (a.labelSelector ?? '') === (b.labelSelector ?? '') && (a.fieldSelector ?? '') === (b.fieldSelector ?? '');
}

/** A scope as text for messages: `labelSelector=… fieldSelector=…`, or `all objects`. Pure. */
export function describeScope(scope: InformerScope): string {
  const parts = [
    ...(scope.labelSelector ? [`labelSelector=${scope.labelSelector}`] : []),
    ...(scope.fieldSelector ? [`fieldSelector=${scope.fieldSelector}`] : []),
  ];
  return parts.length === 0 ? 'all objects' : parts.join(' ');
}

/**
 * Thrown when a kind's informer is asked for with a scope other than the one it was first made with. One cache holds
 * one informer per kind (and one metadata-only one): sharing it silently would hand one caller objects outside its
 * selector, or hide from another objects it expects; declare the kind's scope once and pass it everywhere.
 */
export class InformerScopeConflictError extends Error {
  /** The informer's name (see {@link informerName}). */
  readonly informer: string;

  /** Names the informer and both scopes. */
  constructor(type: ResourceType, existing: InformerScope, requested: InformerScope) {
    super(
      `informer for ${informerName(type)} already exists with scope (${describeScope(existing)}); ` +
        `refusing a second one with scope (${describeScope(requested)}): pass one scope for a kind everywhere`,
    );
    this.name = 'InformerScopeConflictError';
    this.informer = informerName(type);
  }
}
