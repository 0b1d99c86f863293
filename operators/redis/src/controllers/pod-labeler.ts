/**
 * The role labels on member Pods, which the primary and replicas Services select on.
 */
import { coreTypes } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import type { RoleLabeler } from '../redis/execute.ts';
import { ROLE_LABEL } from '../redis/manifests.ts';
import type { RoleLabel } from '../redis/manifests.ts';
import { FIELD_MANAGER } from './apply.ts';

/** A {@link RoleLabeler} that merge-patches `ROLE_LABEL` on Pods of one namespace. Each call is one patch. */
export class PodLabeler implements RoleLabeler {
  readonly #client: Client;
  readonly #namespace: string;
  readonly #signal: AbortSignal | undefined;

  /** Stores its dependencies; does no I/O. */
  constructor(deps: { readonly client: Client }, options: { readonly namespace: string; readonly signal?: AbortSignal }) {
    this.#client = deps.client;
    this.#namespace = options.namespace;
    this.#signal = options.signal;
  }

  /** Sets the role label of `pod`; idempotent. Rejects with the client's error (a missing Pod is a 404). */
  async setRole(pod: string, role: RoleLabel): Promise<void> {
    await this.#client.patch(
      coreTypes.pod,
      { namespace: this.#namespace, name: pod },
      { type: 'merge', body: { metadata: { labels: { [ROLE_LABEL]: role } } } },
      { fieldManager: FIELD_MANAGER, ...(this.#signal !== undefined && { signal: this.#signal }) },
    );
  }
}
