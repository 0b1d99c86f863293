import type { V1Pod } from '@kubernetes/client-node';

/** The operator container's name in every chart's Deployment. */
const CONTAINER = 'operator';

/** The arguments of `kubectl … get pods -n <namespace>`: the operator Pods of one release namespace. Pure. */
export function kubectlGetPodsArgs(kubeconfig: string, namespace: string): string[] {
  return ['--kubeconfig', kubeconfig, 'get', 'pods', '-n', namespace];
}

/** `kubectl -n <namespace> logs deploy/<deployment>`: how a user reads an operator's log. Pure. */
export function logsCommand(namespace: string, deployment: string, previous = false): string {
  return `kubectl -n ${namespace} logs deploy/${deployment}${previous ? ' --previous' : ''}`;
}

/** A duration as kubectl's AGE column prints it (`45s`, `3m12s`, `25m`, `2h5m`, `3d`). Pure. */
export function humanAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const joined = (big: number, bigUnit: string, small: number, smallUnit: string): string => `${big}${bigUnit}${small === 0 ? '' : `${small}${smallUnit}`}`;
  if (seconds < 120) return `${seconds}s`;
  if (minutes < 10) return joined(minutes, 'm', seconds % 60, 's');
  if (minutes < 180) return `${minutes}m`;
  if (hours < 8) return joined(hours, 'h', minutes % 60, 'm');
  if (hours < 48) return `${hours}h`;
  if (hours < 192) return joined(days, 'd', hours % 24, 'h');
  return `${days}d`;
}

/** A Pod's STATUS as `kubectl get pods` shows it: Terminating, a container's waiting or terminated reason, else the phase. Pure. */
export function podStatus(pod: V1Pod): string {
  if (pod.metadata?.deletionTimestamp !== undefined) return 'Terminating';
  for (const container of pod.status?.containerStatuses ?? []) {
    const reason = container.state?.waiting?.reason ?? container.state?.terminated?.reason;
    if (reason !== undefined && reason !== '') return reason;
  }
  return pod.status?.reason ?? pod.status?.phase ?? 'Unknown';
}

/**
 * The table `kubectl get pods` prints for `pods` (NAME, READY, STATUS, RESTARTS, AGE, columns three spaces apart),
 * for when kubectl is not installed; `No resources found in <namespace> namespace.` for none. Pure over `now`.
 */
export function podTable(pods: readonly V1Pod[], namespace: string, now: Date): string {
  if (pods.length === 0) return `No resources found in ${namespace} namespace.`;
  const rows = [
    ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
    ...pods.map((pod) => {
      const containers = pod.status?.containerStatuses ?? [];
      const wanted = pod.spec?.containers.length ?? containers.length;
      const created = pod.metadata?.creationTimestamp;
      return [
        pod.metadata?.name ?? '?',
        `${containers.filter((c) => c.ready).length}/${wanted}`,
        podStatus(pod),
        String(containers.reduce((sum, c) => sum + c.restartCount, 0)),
        created === undefined ? '<unknown>' : humanAge(now.getTime() - new Date(created).getTime()),
      ];
    }),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd((widths[column] ?? 0) + 3))).join('')).join('\n');
}

/** What the local stack watches of one operator's Pods while it runs. */
export interface OperatorPodHealth {
  /** Some Pod of the Deployment is Ready. */
  readonly ready: boolean;
  /** Restarts of the operator container, summed over the live Pods. */
  readonly restarts: number;
  /** Why the operator container is not running, when a Pod says so (e.g. `CrashLoopBackOff`). */
  readonly waitingReason?: string;
}

/** {@link OperatorPodHealth} of an operator's live Pods. Pure. */
export function operatorPodHealth(pods: readonly V1Pod[]): OperatorPodHealth {
  const statuses = pods.flatMap((pod) => pod.status?.containerStatuses?.filter((c) => c.name === CONTAINER) ?? []);
  const waitingReason = statuses.map((c) => c.state?.waiting?.reason).find((reason) => reason !== undefined && reason !== '');
  return {
    ready: pods.some((pod) => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true),
    restarts: statuses.reduce((sum, c) => sum + c.restartCount, 0),
    ...(waitingReason !== undefined && { waitingReason }),
  };
}

/**
 * What changed between two looks at an operator's Pods, as a line for the developer (`undefined`: nothing worth
 * saying): a restart by the kubelet (with the command that shows the ended container's log), or the loss or return
 * of readiness. Pure.
 */
export function podHealthChange(name: string, before: OperatorPodHealth, after: OperatorPodHealth, logs: { readonly current: string; readonly previous: string }): string | undefined {
  if (after.restarts > before.restarts) {
    return `${name} restarted by the kubelet (${after.restarts} restart${after.restarts === 1 ? '' : 's'} so far${after.waitingReason === undefined ? '' : `, ${after.waitingReason}`}); why: ${logs.previous}`;
  }
  if (before.ready && !after.ready) return `${name} is not Ready${after.waitingReason === undefined ? '' : ` (${after.waitingReason})`}; see ${logs.current}`;
  if (!before.ready && after.ready) return `${name} is Ready again`;
  return undefined;
}
