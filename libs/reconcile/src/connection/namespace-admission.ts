import type { V1Namespace } from '@kubernetes/client-node';
import { TerminalError } from '../core/errors.ts';
import { ConnectionReasons } from './connection-reasons.ts';
import type { StoreSource } from './connection-object.ts';
import { DependencyError } from './dependency-error.ts';
import type { LabelSelector } from './label-selector.ts';
import { matchesSelector } from './label-selector.ts';

/** What a {@link NamespaceAdmission} reads: the Namespace cache (its `store` is read at call time). */
export interface NamespaceAdmissionDeps {
  readonly namespaces: StoreSource<V1Namespace>;
}

/**
 * Tenancy selection by namespace labels: which namespaces a connection's `tenancy.namespaceSelector` admits. The
 * namespace's labels come from the cache (may be stale; a label change wakes the dependents, see
 * `watchConnectionDependents`). Keeps nothing.
 */
export class NamespaceAdmission {
  readonly #deps: NamespaceAdmissionDeps;
  readonly #kind: string;

  /** `kind` names the connection kind in messages (`KafkaConnection`). Reads nothing yet. */
  constructor(deps: NamespaceAdmissionDeps, options: { readonly kind: string }) {
    this.#deps = deps;
    this.#kind = options.kind;
  }

  /**
   * Passes when `selector` admits `namespace`; an absent selector admits every namespace without a cache read.
   * Throws {@link DependencyError} `NamespaceNotFound` (retried) when a selector must be checked and the namespace is
   * not cached yet, and `TerminalError` `TenancyViolation` when the selector does not select it.
   */
  admit(connection: string, selector: LabelSelector | undefined, namespace: string): void {
    if (selector === undefined) return;
    const own = this.#deps.namespaces.store.get(namespace);
    if (own === undefined) throw new DependencyError(ConnectionReasons.namespaceNotFound, `namespace "${namespace}" is not in the cache yet`);
    if (!matchesSelector(selector, own.metadata?.labels)) {
      throw new TerminalError(`namespace "${namespace}" is not selected by ${this.#kind} "${connection}" (tenancy.namespaceSelector)`, ConnectionReasons.tenancyViolation);
    }
  }

  /** The names of the cached namespaces `selector` admits (every cached namespace without one). */
  admitted(selector: LabelSelector | undefined): string[] {
    return this.#deps.namespaces.store
      .list()
      .filter((ns) => matchesSelector(selector, ns.metadata?.labels))
      .map((ns) => ns.metadata?.name ?? '');
  }
}
