import type { V1Deployment } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { installableObjects, localOperatorArgs, parseManifests, singleOfKind, typeOfManifest } from './manifests.ts';

const RENDERED = `---
# Source: x/templates/serviceaccount.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: r-x
  namespace: ops
---
# Source: x/templates/servicemonitor.yaml
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: r-x
  namespace: ops
spec:
  template:
    spec:
      containers:
        - name: operator
          args: ["--log-level=info", "--metrics-bind-address=:8080", "--health-probe-bind-address=:8081", "--leader-elect"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: r-x-leader-election, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: r-x}
---
apiVersion: v1
kind: Service
metadata: {name: r-x-metrics, namespace: ops}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.x.domain-operators.io}
`;

describe('parseManifests', () => {
  it('returns every object and skips documents switched off by a value', () => {
    expect(parseManifests(RENDERED).map((o) => o.kind)).toEqual(['ServiceAccount', 'Deployment', 'RoleBinding', 'ClusterRole', 'Service', 'CustomResourceDefinition']);
  });

  it('refuses a document that is not a Kubernetes object', () => {
    expect(() => parseManifests('apiVersion: v1\nkind: ConfigMap\n')).toThrow(/without apiVersion, kind or metadata.name/);
  });

  it('refuses YAML that does not parse', () => {
    expect(() => parseManifests('a: [b\n')).toThrow(/not valid YAML/);
  });
});

describe('installableObjects', () => {
  it('keeps the CRDs, ServiceAccount and RBAC, CRDs first, and drops the Deployment and Service', () => {
    expect(installableObjects(parseManifests(RENDERED)).map((o) => o.kind)).toEqual(['CustomResourceDefinition', 'ServiceAccount', 'ClusterRole', 'RoleBinding']);
  });
});

describe('typeOfManifest', () => {
  it('maps apiVersion and kind to the REST resource', () => {
    expect(typeOfManifest({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding' })).toMatchObject({ plural: 'clusterrolebindings', namespaced: false });
    expect(typeOfManifest({ apiVersion: 'v1', kind: 'ServiceAccount' })).toMatchObject({ group: '', plural: 'serviceaccounts', namespaced: true });
  });

  it('names a kind it does not know', () => {
    expect(() => typeOfManifest({ apiVersion: 'example.com/v1', kind: 'Gadget' })).toThrow('example.com/v1 Gadget');
  });
});

describe('singleOfKind', () => {
  it('finds the one object of a kind and refuses none or several', () => {
    const objects = parseManifests(RENDERED);
    expect(singleOfKind(objects, 'Service').metadata?.name).toBe('r-x-metrics');
    expect(() => singleOfKind(objects, 'Pod')).toThrow('found 0');
    expect(() => singleOfKind([...objects, ...objects], 'Service')).toThrow('found 2');
  });
});

describe('localOperatorArgs', () => {
  const deployment = singleOfKind(parseManifests(RENDERED), 'Deployment') as V1Deployment;
  const endpoints = { metricsBindAddress: '127.0.0.1:4001', healthProbeBindAddress: '127.0.0.1:4002' };

  it("keeps the chart's flags but moves metrics and probes to local ports", () => {
    expect(localOperatorArgs(deployment, endpoints)).toEqual([
      '--log-level=info',
      '--leader-elect',
      '--metrics-bind-address=127.0.0.1:4001',
      '--health-probe-bind-address=127.0.0.1:4002',
    ]);
  });

  it('puts extra flags last, so they win', () => {
    expect(localOperatorArgs(deployment, endpoints, ['--log-level=debug']).at(-1)).toBe('--log-level=debug');
  });

  it('refuses a Deployment without a container', () => {
    expect(() => localOperatorArgs({ metadata: { name: 'd' }, spec: { selector: {}, template: { spec: { containers: [] } } } }, endpoints)).toThrow('has no container');
  });
});
