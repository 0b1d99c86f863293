import type { V1Node, V1NodeCondition, V1NodeStatus } from '@kubernetes/client-node';
import { NODE_NAME } from './layout.ts';

/** Facts about the host the Node reports. */
export interface HostFacts {
  readonly cpus: number;
  /** Total memory in bytes. */
  readonly memoryBytes: number;
  readonly kernelVersion: string;
  readonly architecture: string;
  readonly kubeletVersion: string;
}

/** Pods the node accepts (the kubelet's default). */
export const MAX_PODS = 110;

/** The node's labels, as a kubelet would set them. Pure. */
export function nodeLabels(facts: HostFacts): Record<string, string> {
  return {
    'kubernetes.io/hostname': NODE_NAME,
    'kubernetes.io/os': 'linux',
    'kubernetes.io/arch': facts.architecture,
    'beta.kubernetes.io/os': 'linux',
    'beta.kubernetes.io/arch': facts.architecture,
    'testenv.domain-operators.io/pod-runner': 'true',
  };
}

/**
 * The node's status at `now`: Ready True (reason KubeletReady) and no pressure, heartbeat `now`, transitions
 * at `since`; capacity and allocatable from the host (cpu, memory, pods 110); InternalIP 127.0.0.1. Pure.
 */
export function nodeStatus(facts: HostFacts, now: Date, since: Date): V1NodeStatus {
  const condition = (type: string, status: string, reason: string, message: string): V1NodeCondition => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: now,
    lastTransitionTime: since,
  });
  const resources = { cpu: String(facts.cpus), memory: `${Math.floor(facts.memoryBytes / 1024)}Ki`, pods: String(MAX_PODS), 'ephemeral-storage': '100Gi' };
  return {
    capacity: resources,
    allocatable: resources,
    conditions: [
      condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      condition('Ready', 'True', 'KubeletReady', "testenv's pod runner is posting ready status (it runs only redis images)"),
    ],
    addresses: [
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: NODE_NAME },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
    nodeInfo: {
      machineID: 'testenv',
      systemUUID: 'testenv',
      bootID: 'testenv',
      kernelVersion: facts.kernelVersion,
      osImage: 'testenv pod runner',
      containerRuntimeVersion: 'testenv://1.0.0',
      kubeletVersion: facts.kubeletVersion,
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: facts.architecture,
    },
  };
}

/** The Node object the runner registers. Pure. */
export function nodeManifest(facts: HostFacts, now: Date): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: NODE_NAME, labels: nodeLabels(facts) },
    spec: {},
    status: nodeStatus(facts, now, now),
  };
}
