import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger.ts';
import type { ExternalAdapter, ExternalContext } from '../external/external-adapter.ts';
import type { EventInput, Recorder } from '../observability/events.ts';
import { releasingWhenConnectionGone } from './connection-gone.ts';
import { DependencyError } from './dependency-error.ts';

const object: KubernetesObject = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'logs', namespace: 'team-a', uid: 'u1' } };
const context: ExternalContext<KubernetesObject> = {
  request: { namespace: 'team-a', name: 'logs' },
  reconcileId: 'r1',
  log: silentLogger,
  signal: new AbortController().signal,
  externalName: 'main/team-a-logs',
  object,
  client: () => Promise.resolve(undefined),
};

function adapterFailingDeleteWith(error: Error | undefined): ExternalAdapter<KubernetesObject, unknown, unknown> {
  return {
    observe: () => Promise.resolve({ exists: false }),
    create: () => Promise.resolve({}),
    update: () => Promise.resolve({ status: { uuid: 'u-1' } }),
    delete: () => (error === undefined ? Promise.resolve() : Promise.reject(error)),
  };
}

function recorder(): Recorder & { readonly events: EventInput[] } {
  const events: EventInput[] = [];
  return { events, record: (_object, event) => void events.push(event) };
}

const OPTIONS = { connectionKind: 'OpenSearchConnection', system: 'OpenSearch' };

describe('releasingWhenConnectionGone', () => {
  it('lets a deletion whose connection is gone succeed, with a Warning Event naming what was left in OpenSearch', async () => {
    const events = recorder();
    const adapter = releasingWhenConnectionGone(adapterFailingDeleteWith(new DependencyError('ConnectionNotFound', 'OpenSearchConnection main does not exist')), events, OPTIONS);
    await expect(adapter.delete({ externalName: 'main/team-a-logs', desired: undefined }, context)).resolves.toBeUndefined();
    expect(events.events).toEqual([
      { type: 'Warning', reason: 'ConnectionGone', action: 'Delete', note: 'OpenSearchConnection "main" no longer exists; team-a-logs was not deleted from OpenSearch' },
    ]);
  });

  it('names what was left with the kind’s noun when given', async () => {
    const events = recorder();
    const adapter = releasingWhenConnectionGone(adapterFailingDeleteWith(new DependencyError('ConnectionNotFound', 'gone')), events, { connectionKind: 'KafkaConnection', system: 'Kafka', noun: 'topic' });
    await adapter.delete({ externalName: 'main/team-a.orders', desired: undefined }, context);
    expect(events.events[0]?.note).toBe('KafkaConnection "main" no longer exists; topic team-a.orders was not deleted from Kafka');
  });

  it.each([
    ['a missing credentials Secret', new DependencyError('SecretNotFound', 'Secret ops/login does not exist')],
    ['OpenSearch unreachable', new Error('connect ECONNREFUSED 127.0.0.1:9200')],
  ])('still fails the deletion for %s, to be retried', async (_what, error) => {
    const events = recorder();
    const adapter = releasingWhenConnectionGone(adapterFailingDeleteWith(error), events, OPTIONS);
    await expect(adapter.delete({ externalName: 'main/team-a-logs', desired: undefined }, context)).rejects.toBe(error);
    expect(events.events).toEqual([]);
  });

  it('passes everything else through, the optional intent included exactly when the adapter has one', async () => {
    const inner = { ...adapterFailingDeleteWith(undefined), intent: () => ({ aliases: ['team-a-read'] }) };
    const adapter = releasingWhenConnectionGone(inner, recorder(), OPTIONS);
    expect(adapter.intent?.(undefined, undefined, context)).toEqual({ aliases: ['team-a-read'] });
    await expect(adapter.observe(undefined, context)).resolves.toEqual({ exists: false });
    await expect(adapter.create(undefined, context)).resolves.toEqual({});
    await expect(adapter.update(undefined, undefined, context)).resolves.toEqual({ status: { uuid: 'u-1' } });
    expect('intent' in releasingWhenConnectionGone(adapterFailingDeleteWith(undefined), recorder(), OPTIONS)).toBe(false);
  });

  it('keeps an adapter’s marksCreator (without it every create would write its CreatePending claim again)', () => {
    expect(releasingWhenConnectionGone({ ...adapterFailingDeleteWith(undefined), marksCreator: true }, recorder(), OPTIONS).marksCreator).toBe(true);
    expect('marksCreator' in releasingWhenConnectionGone(adapterFailingDeleteWith(undefined), recorder(), OPTIONS)).toBe(false);
  });
});
