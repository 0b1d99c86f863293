import type { KubernetesObject } from '@kubernetes/client-node';

/** A change seen by a controller's watch, as given to predicates. */
export type ChangeEvent<T extends KubernetesObject = KubernetesObject> =
  | { readonly type: 'create'; readonly object: T }
  | { readonly type: 'update'; readonly object: T; readonly oldObject: T }
  | { readonly type: 'delete'; readonly object: T };

/** Decides whether a change should enqueue a reconcile. Must be pure and cheap: it runs for every event. */
export type Predicate<T extends KubernetesObject = KubernetesObject> = (event: ChangeEvent<T>) => boolean;

/**
 * Passes updates only when `metadata.generation` changed (a spec change), so status-only updates, including
 * the controller's own, do not wake it. Creates and deletes pass. Objects without a generation always pass.
 */
export const generationChanged: Predicate = (event) =>
  event.type !== 'update' ||
  event.object.metadata?.generation === undefined ||
  event.object.metadata.generation !== event.oldObject.metadata?.generation;

/** Passes updates only when `metadata.labels` changed. Creates and deletes pass. */
export const labelsChanged: Predicate = (event) =>
  event.type !== 'update' || !sameStringMap(event.object.metadata?.labels, event.oldObject.metadata?.labels);

/** Passes updates only when `metadata.annotations` changed. Creates and deletes pass. */
export const annotationsChanged: Predicate = (event) =>
  event.type !== 'update' || !sameStringMap(event.object.metadata?.annotations, event.oldObject.metadata?.annotations);

/** Passes when every predicate passes (true for none). */
export function and<T extends KubernetesObject>(...predicates: readonly Predicate<T>[]): Predicate<T> {
  return (event) => predicates.every((p) => p(event));
}

/** Passes when any predicate passes (false for none). */
export function or<T extends KubernetesObject>(...predicates: readonly Predicate<T>[]): Predicate<T> {
  return (event) => predicates.some((p) => p(event));
}

/** Passes when `predicate` does not. */
export function not<T extends KubernetesObject>(predicate: Predicate<T>): Predicate<T> {
  return (event) => !predicate(event);
}

function sameStringMap(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  const left = a ?? {};
  const right = b ?? {};
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((k) => left[k] === right[k]);
}
