import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Client } from '../client/client.ts';
import type { ResourceType } from '../client/resource-type.ts';
import { silentLogger } from '../core/logger.ts';
import type { ExternalAdapter, ExternalContext } from '../external/external-adapter.ts';
import type { ClaimIndex } from '../external/external-claims.ts';
import type { CreateClaims } from '../external/create-claims.ts';
import type { EventInput, Recorder } from '../observability/events.ts';
import { DependencyError } from './dependency-error.ts';
import { managedResourceDeps } from './managed-deps.ts';

const SYSTEM = { group: 'example.domain-operators.io', connectionKind: 'ExampleConnection', system: 'Example' };
const type: ResourceType = { group: 'example.domain-operators.io', version: 'v1alpha1', kind: 'Thing', plural: 'things', namespaced: true };
const object: KubernetesObject = { apiVersion: 'example.domain-operators.io/v1alpha1', kind: 'Thing', metadata: { name: 'orders', namespace: 'team-a', uid: 'u1' } };
const context: ExternalContext<KubernetesObject> = { request: { namespace: 'team-a', name: 'orders' }, reconcileId: 'r1', log: silentLogger, signal: new AbortController().signal, externalName: 'main/team-a.orders', object, client: () => Promise.resolve(undefined) };
const adapter: ExternalAdapter<KubernetesObject, unknown, unknown> = {
  observe: () => Promise.resolve({ exists: false }),
  create: () => Promise.resolve({}),
  update: () => Promise.resolve({}),
  delete: () => Promise.reject(new DependencyError('ConnectionNotFound', 'ExampleConnection "main" does not exist')),
};
const claims: ClaimIndex<KubernetesObject> = { claimants: () => [] };
// Never called here: building the parts does no I/O.
const client = {} as Client;

function recorder(): Recorder & { readonly events: EventInput[] } {
  const events: EventInput[] = [];
  return { events, record: (_object, event) => void events.push(event) };
}

describe('managedResourceDeps', () => {
  it("releases a delete whose connection is gone with a ConnectionGone Event in the system's words and the kind's noun", async () => {
    const events = recorder();
    const deps = managedResourceDeps(SYSTEM, { client, events }, { type, adapter, claims, noun: 'topic' });
    await expect(deps.adapter.delete({ externalName: 'main/team-a.orders', desired: undefined }, context)).resolves.toBeUndefined();
    expect(events.events.map((e) => e.note)).toEqual(['ExampleConnection "main" no longer exists; topic team-a.orders was not deleted from Example']);
    expect(deps.events).toBe(events);
  });

  it('passes the claims ledger, clock and randomness only when given', () => {
    const kind = { type, adapter, claims };
    const bare = managedResourceDeps(SYSTEM, { client, events: recorder() }, kind);
    expect(Object.keys(bare).sort()).toEqual(['adapter', 'claims', 'events', 'finalizer', 'status']);
    const now = (): Date => new Date(0);
    const random = (): number => 0.5;
    const createClaims: CreateClaims = { claim: () => Promise.resolve(true), holds: () => false, confirm: () => Promise.resolve(true), release: () => undefined };
    const full = managedResourceDeps(SYSTEM, { client, events: recorder(), now, random }, { ...kind, createClaims });
    expect(full).toMatchObject({ now, random, createClaims });
  });
});
