import { describe, expect, it } from 'vitest';
import type { KafkaUser } from '../api/v1alpha1/index.ts';
import { isControlledBy } from '@domain-operators/reconcile';
import { credentialData, credentialsSecret, generatedSecretName, jaasConfig } from './credentials-secret.ts';

const user = {
  apiVersion: 'kafka.domain-operators.io/v1alpha1',
  kind: 'KafkaUser',
  metadata: { name: 'app', namespace: 'team-a', uid: 'u-1' },
  spec: { connectionRef: { name: 'main' }, authentication: { type: 'scram-sha-512' } },
} as KafkaUser;

describe('credentials Secret', () => {
  it('is named after the user, owned by it, and carries a usable JAAS line', () => {
    const secret = credentialsSecret(user, { username: 'team-a.app', password: 'p"w\\d', mechanism: 'SCRAM-SHA-512', bootstrapServers: ['b1:9092', 'b2:9092'] });
    expect(generatedSecretName(user)).toBe('app-kafka-credentials');
    expect(secret.metadata?.name).toBe('app-kafka-credentials');
    expect(isControlledBy(secret, 'u-1')).toBe(true);
    expect(isControlledBy(secret, 'other')).toBe(false);
    expect(secret.metadata?.labels).toEqual({ 'app.kubernetes.io/managed-by': 'kafka-operator', 'kafka.domain-operators.io/kafka-user': 'app' });
    expect(secret.metadata?.ownerReferences).toEqual([{ apiVersion: 'kafka.domain-operators.io/v1alpha1', kind: 'KafkaUser', name: 'app', uid: 'u-1', controller: true, blockOwnerDeletion: true }]);
    expect(secret.stringData).toEqual({
      username: 'team-a.app',
      password: 'p"w\\d',
      mechanism: 'SCRAM-SHA-512',
      bootstrapServers: 'b1:9092,b2:9092',
      'sasl.jaas.config': 'org.apache.kafka.common.security.scram.ScramLoginModule required username="team-a.app" password="p\\"w\\\\d";',
    });
  });

  it('derives every key from the password, so a rotated password gets a matching JAAS line', () => {
    const data = credentialData({ username: 'u', password: 'new', mechanism: 'SCRAM-SHA-256', bootstrapServers: ['b:1'] });
    expect(data['sasl.jaas.config']).toBe(jaasConfig('u', 'new'));
  });
});
