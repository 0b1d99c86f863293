import type { KubernetesObject } from '@kubernetes/client-node';
import { CLUSTER_DNS_IP, CLUSTER_DOMAIN } from './addresses.ts';

/** Images the add-ons run from; each must already be imported into the node's containerd. */
export interface AddonImages {
  readonly coredns: string;
  readonly localPathProvisioner: string;
  /** The local-path provisioner's helper Pods (`mkdir`/`rm` of a volume's directory) run `sh` from it. */
  readonly busybox: string;
}

/** The default StorageClass's name (kind's name for the same provisioner). */
export const DEFAULT_STORAGE_CLASS = 'standard';

/** Where the local-path provisioner keeps volumes on the host. */
export interface AddonPaths {
  readonly localPathDir: string;
}

const DNS_PORT = 1053;
const restricted = {
  runAsNonRoot: true,
  runAsUser: 65532,
  runAsGroup: 65532,
  seccompProfile: { type: 'RuntimeDefault' },
} as const;
const containerRestricted = { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } } as const;

/**
 * The Corefile of the cluster DNS: the `kubernetes` plugin answers `cluster.local` and reverse lookups; there is no
 * `forward` (none is even built in): a name outside the cluster gets no answer instead of a query off this
 * machine. It listens on an unprivileged port; the `kube-dns` Service maps 53 to it. Pure.
 */
export function corefile(): string {
  return `.:${DNS_PORT} {
    errors
    health {
        lameduck 5s
    }
    ready
    kubernetes ${CLUSTER_DOMAIN} in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 30
    }
    cache 30
    loop
    reload
    loadbalance
}
`;
}

/**
 * The cluster DNS as a default cluster has it: CoreDNS in `kube-system` behind the `kube-dns` Service at
 * {@link CLUSTER_DNS_IP}, with the RBAC its `kubernetes` plugin needs, running restricted. Pure.
 */
export function corednsManifests(images: AddonImages): KubernetesObject[] {
  const labels = { 'k8s-app': 'kube-dns' };
  const meta = (name: string): { name: string; namespace: string; labels: Record<string, string> } => ({ name, namespace: 'kube-system', labels });
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta('coredns') },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'system:coredns', labels },
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    } as KubernetesObject,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:coredns', labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' },
      subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: 'kube-system' }],
    } as KubernetesObject,
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('coredns'), data: { Corefile: corefile() } } as KubernetesObject,
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta('coredns'),
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: 'coredns',
            priorityClassName: 'system-cluster-critical',
            dnsPolicy: 'Default',
            securityContext: restricted,
            terminationGracePeriodSeconds: 5,
            containers: [
              {
                name: 'coredns',
                image: images.coredns,
                imagePullPolicy: 'Never',
                args: ['-conf', '/etc/coredns/Corefile'],
                ports: [
                  { name: 'dns', containerPort: DNS_PORT, protocol: 'UDP' },
                  { name: 'dns-tcp', containerPort: DNS_PORT, protocol: 'TCP' },
                ],
                readinessProbe: { httpGet: { path: '/ready', port: 8181 }, periodSeconds: 2 },
                livenessProbe: { httpGet: { path: '/health', port: 8080 }, periodSeconds: 10, failureThreshold: 5 },
                resources: { requests: { cpu: '50m', memory: '32Mi' }, limits: { memory: '128Mi' } },
                securityContext: containerRestricted,
                volumeMounts: [{ name: 'config', mountPath: '/etc/coredns', readOnly: true }],
              },
            ],
            volumes: [{ name: 'config', configMap: { name: 'coredns' } }],
          },
        },
      },
    } as KubernetesObject,
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { ...meta('kube-dns'), labels: { ...labels, 'kubernetes.io/name': 'CoreDNS' } },
      spec: {
        clusterIP: CLUSTER_DNS_IP,
        selector: labels,
        ports: [
          { name: 'dns', port: 53, targetPort: 'dns', protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, targetPort: 'dns-tcp', protocol: 'TCP' },
        ],
      },
    } as KubernetesObject,
  ];
}

/**
 * Dynamic volume provisioning as kind has it: the local-path provisioner in `local-path-storage`, provisioning
 * each claim of the default StorageClass {@link DEFAULT_STORAGE_CLASS} as a directory under `paths.localPathDir`
 * (bound when the first Pod is scheduled, deleted with its claim). Pure.
 */
export function localPathManifests(images: AddonImages, paths: AddonPaths): KubernetesObject[] {
  const namespace = 'local-path-storage';
  const SERVICE_ACCOUNT = 'local-path-provisioner-service-account';
  const labels = { app: 'local-path-provisioner' };
  const config = {
    nodePathMap: [{ node: 'DEFAULT_PATH_FOR_NON_LISTED_NODES', paths: [paths.localPathDir] }],
  };
  const helperPod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'helper-pod' },
    spec: {
      priorityClassName: 'system-node-critical',
      tolerations: [{ key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' }],
      containers: [{ name: 'helper-pod', image: images.busybox, imagePullPolicy: 'Never' }],
    },
  };
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    // The provisioner runs its helper Pods as this ServiceAccount (its `--service-account-name` default).
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: SERVICE_ACCOUNT, namespace } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'local-path-provisioner' },
      rules: [
        { apiGroups: [''], resources: ['nodes', 'persistentvolumeclaims', 'configmaps', 'pods', 'pods/log'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'update', 'delete'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
        { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['get', 'list', 'watch'] },
      ],
    } as KubernetesObject,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'local-path-provisioner' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'local-path-provisioner' },
      subjects: [{ kind: 'ServiceAccount', name: SERVICE_ACCOUNT, namespace }],
    } as KubernetesObject,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'local-path-provisioner', namespace },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'update', 'delete'] }],
    } as KubernetesObject,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'local-path-provisioner', namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'local-path-provisioner' },
      subjects: [{ kind: 'ServiceAccount', name: SERVICE_ACCOUNT, namespace }],
    } as KubernetesObject,
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'local-path-config', namespace },
      data: {
        'config.json': JSON.stringify(config, null, 2),
        setup: '#!/bin/sh\nset -eu\nmkdir -m 0777 -p "$VOL_DIR"\n',
        teardown: '#!/bin/sh\nset -eu\nrm -rf "$VOL_DIR"\n',
        'helperPod.yaml': JSON.stringify(helperPod, null, 2),
      },
    } as KubernetesObject,
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'local-path-provisioner', namespace, labels },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: SERVICE_ACCOUNT,
            priorityClassName: 'system-node-critical',
            securityContext: restricted,
            terminationGracePeriodSeconds: 5,
            containers: [
              {
                name: 'local-path-provisioner',
                image: images.localPathProvisioner,
                imagePullPolicy: 'Never',
                args: ['--debug', 'start', '--config', '/etc/config/config.json'],
                env: [
                  { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                  { name: 'CONFIG_MOUNT_PATH', value: '/etc/config/' },
                ],
                resources: { requests: { cpu: '20m', memory: '32Mi' }, limits: { memory: '128Mi' } },
                securityContext: containerRestricted,
                volumeMounts: [{ name: 'config', mountPath: '/etc/config/', readOnly: true }],
              },
            ],
            volumes: [{ name: 'config', configMap: { name: 'local-path-config' } }],
          },
        },
      },
    } as KubernetesObject,
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: DEFAULT_STORAGE_CLASS, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
      volumeBindingMode: 'WaitForFirstConsumer',
      reclaimPolicy: 'Delete',
    } as KubernetesObject,
  ];
}
