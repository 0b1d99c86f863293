/**
 * What a managed kind's controller asks of its operator's connections.
 */

/** One operator's connections as its managed kinds reach them (a `ConnectionKit` is one). */
export interface ManagedConnections<C> {
  /**
   * Throws the connection's own reason while its `Ready` says it does not work at its generation, a retried
   * `ConnectionNotFound` while it is not cached (`ConnectionKit.usable`).
   */
  usable(name: string): unknown;
  /** The client of the connection an external name `<connection>/<name>` is on (`ConnectionKit.clientOf`). */
  clientOf(externalName: string, signal?: AbortSignal): Promise<C>;
  /** The connection's `spec.ignoredNames` (see ignored-names.ts); empty when it names none or is not cached. */
  ignoredNames(name: string): readonly string[];
}
