import type { KubernetesObject } from '@kubernetes/client-node';
import type { IndexFunc, Store } from '../cache/store.ts';

/**
 * Finds every resource that claims an external name (the same kind, any namespace), to settle which of them may
 * manage the external object. Backed in production by a {@link Store} index ({@link storeClaimIndex}); reads may be
 * stale like any cache read. Must be synchronous, cheap and must not throw.
 */
export interface ClaimIndex<T extends KubernetesObject> {
  /** The resources whose external name is `externalName`; may or may not include the caller. */
  claimants(externalName: string): readonly T[];
}

/**
 * A Store indexer over external names, for {@link storeClaimIndex}. `externalNameOf` is the kind's own function (the
 * one given to the reconciler); a resource whose name cannot be computed (it throws, e.g. an invalid spec) is indexed
 * under nothing, because an index function must not throw.
 */
export function byExternalName<T extends KubernetesObject>(externalNameOf: (object: T) => string): IndexFunc<T> {
  return (object) => {
    try {
      return [externalNameOf(object)];
    } catch {
      return [];
    }
  };
}

/** A {@link ClaimIndex} over a Store that was built with {@link byExternalName} registered as `indexName`. */
export function storeClaimIndex<T extends KubernetesObject>(store: Store<T>, indexName: string): ClaimIndex<T> {
  return { claimants: (externalName) => store.byIndex(indexName, externalName) };
}

/**
 * Of several resources claiming one external name, the one that may manage it: a claimant that already manages it
 * (`manages` says so) before any other, then the oldest by `metadata.creationTimestamp`, ties (one-second resolution)
 * broken by the smaller `metadata.uid`. So an owner never loses its object to a claimant created in the same second,
 * and a resource being deleted still counts: a newer claimant does not start before the older one has let go.
 * Deterministic: every claimant computes the same winner from the same set. `undefined` only for an empty list.
 */
export function claimWinner<T extends KubernetesObject>(claimants: readonly T[], manages: (claimant: T) => boolean = () => false): T | undefined {
  let winner: T | undefined;
  let winnerManages = false;
  for (const candidate of claimants) {
    const candidateManages = manages(candidate);
    if (winner === undefined || (candidateManages && !winnerManages) || (candidateManages === winnerManages && olderThan(candidate, winner))) {
      winner = candidate;
      winnerManages = candidateManages;
    }
  }
  return winner;
}

function olderThan(a: KubernetesObject, b: KubernetesObject): boolean {
  const ta = createdAt(a);
  const tb = createdAt(b);
  if (ta !== tb) return ta < tb;
  return (a.metadata?.uid ?? '') < (b.metadata?.uid ?? '');
}

function createdAt(object: KubernetesObject): number {
  const raw: unknown = object.metadata?.creationTimestamp;
  // Cached objects hold the wire string; client-node models hold a Date. A missing time sorts last (not yet created).
  const time = raw instanceof Date ? raw.getTime() : typeof raw === 'string' ? Date.parse(raw) : Number.NaN;
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
}
