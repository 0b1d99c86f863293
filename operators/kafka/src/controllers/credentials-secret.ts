import type { V1Secret } from '@kubernetes/client-node';
import { credentialsSecretName, ownedSecret } from '@domain-operators/reconcile';
import type { KafkaUser } from '../api/v1alpha1/index.ts';
import type { ScramMechanism } from '../kafka/admin.ts';
import { GROUP, kafkaUsers } from '../api/v1alpha1/index.ts';

/** Keys of a generated credentials Secret. */
export const CREDENTIAL_KEYS = {
  username: 'username',
  password: 'password',
  mechanism: 'mechanism',
  bootstrapServers: 'bootstrapServers',
  jaas: 'sasl.jaas.config',
} as const;

/** The label that marks a Secret generated for a KafkaUser (value: the KafkaUser's name). */
export const CREDENTIALS_LABEL = `${GROUP}/kafka-user`;

/** Name of the Secret generated for a KafkaUser without `passwordSecretRef`: `<name>-kafka-credentials`. Pure. */
export function generatedSecretName(user: KafkaUser): string {
  return credentialsSecretName(user.metadata.name ?? '', 'kafka');
}

/** The Java client's JAAS line for a SCRAM login; quotes and backslashes in the values are escaped. Pure. */
export function jaasConfig(username: string, password: string): string {
  const quote = (value: string): string => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  return `org.apache.kafka.common.security.scram.ScramLoginModule required username=${quote(username)} password=${quote(password)};`;
}

/** What a generated credentials Secret holds. */
export interface CredentialValues {
  readonly username: string;
  readonly password: string;
  readonly mechanism: ScramMechanism;
  readonly bootstrapServers: readonly string[];
}

/** The string data of a credentials Secret. Pure. */
export function credentialData(values: CredentialValues): Record<string, string> {
  return {
    [CREDENTIAL_KEYS.username]: values.username,
    [CREDENTIAL_KEYS.password]: values.password,
    [CREDENTIAL_KEYS.mechanism]: values.mechanism,
    [CREDENTIAL_KEYS.bootstrapServers]: values.bootstrapServers.join(','),
    [CREDENTIAL_KEYS.jaas]: jaasConfig(values.username, values.password),
  };
}

/** The `app.kubernetes.io/managed-by` value of every Secret this operator generates; its Secret cache selects on it. */
export const MANAGED_BY = 'kafka-operator';

/** The generated credentials Secret of `user`, owned (controller reference) by it, so it goes with it. Pure. */
export function credentialsSecret(user: KafkaUser, values: CredentialValues): V1Secret {
  return ownedSecret({
    ownerType: kafkaUsers.type,
    owner: user,
    name: generatedSecretName(user),
    managedBy: MANAGED_BY,
    labels: { [CREDENTIALS_LABEL]: user.metadata.name ?? '' },
    stringData: credentialData(values),
  });
}
