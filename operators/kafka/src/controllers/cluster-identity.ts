import type { ConnectionHealth, Predicate } from '@domain-operators/reconcile';
import type { KafkaConnection } from '../api/v1alpha1/index.ts';
import type { ClusterInfo } from '../kafka/admin.ts';
import { KafkaReasons } from '../kafka/reasons.ts';

/**
 * What a KafkaConnection's check reports for the cluster it reached: `Ready=True`/`Connected` with the cluster id,
 * controller and brokers as status fields; or, when `previousClusterId` (what the connection last saw) is another
 * id, `Ready=True`/`ClusterReplaced` with a Warning Event that names the old and the new id: the cluster behind the
 * same bootstrap servers was rebuilt or restored (or the connection now points at another one). Pure; never a secret.
 */
export function connectionHealth(info: ClusterInfo, previousClusterId: string | undefined): ConnectionHealth {
  const fields = {
    clusterId: info.clusterId,
    controllerId: info.controllerId,
    brokers: info.brokers.map((b) => ({ id: b.id, host: b.host, port: b.port, ...(b.rack !== undefined && { rack: b.rack }) })),
  };
  const connected = `connected to cluster ${info.clusterId} (${info.brokers.length} brokers)`;
  if (previousClusterId === undefined || previousClusterId === info.clusterId) return { ready: true, message: connected, fields };
  return {
    ready: true,
    reason: KafkaReasons.clusterReplaced,
    eventType: 'Warning',
    message:
      `the cluster id changed from ${previousClusterId} to ${info.clusterId}: the cluster behind these bootstrap servers was rebuilt or restored ` +
      `(or the connection now points at another cluster); its KafkaTopics and KafkaUsers are being applied to it again, and topics without a KafkaTopic are left alone ` +
      `(${info.brokers.length} brokers)`,
    fields,
  };
}

/**
 * Passes an update of a KafkaConnection whose `status.clusterId` changed from one id to another (not its first id):
 * the connection's check found a replaced cluster, so every topic and user on it must look again now rather than at
 * its next drift check. Creates, deletes and other updates do not pass (the runtime's connection watch covers them).
 * Pure.
 */
export const clusterIdChanged: Predicate<KafkaConnection> = (event) => {
  if (event.type !== 'update') return false;
  const before = event.oldObject.status?.clusterId;
  const after = event.object.status?.clusterId;
  return before !== undefined && after !== undefined && before !== after;
};
