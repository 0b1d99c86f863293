import { describe, expect, it } from 'vitest';
import type { V1Deployment } from '@kubernetes/client-node';
import type { ChartInstallation } from './install.ts';
import { admissionPoliciesLine, belongsTo, componentsFor, deploymentName, formatProgress, kubectlGetArgs, operatorImage } from './local-stack.ts';

describe('local stack pure parts', () => {
  it('formats progress as testenv does', () => {
    expect(formatProgress(12_345, 'kafka-operator', 'ready')).toBe('[  12.3s] kafka-operator: ready');
  });

  it('needs the apiserver (with the node) and the Kafka and OpenSearch the operators talk to; Redis runs as Pods', () => {
    expect(componentsFor(['redis', 'kafka'])).toEqual(['apiserver', 'kafka']);
    expect(componentsFor(['opensearch', 'redis', 'kafka'])).toEqual(['apiserver', 'kafka', 'opensearch']);
    expect(componentsFor(['redis'])).toEqual(['apiserver']);
  });

  it('names the Deployment and image the chart rendered', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'e2e-abc-kafka-operator' },
      spec: { selector: {}, template: { spec: { containers: [{ name: 'operator', image: 'ghcr.io/domain-operators/kafka-operator:0.1.0' }] } } },
    } as V1Deployment;
    const installation = { deployment } as ChartInstallation;
    expect(deploymentName({ installation })).toBe('e2e-abc-kafka-operator');
    expect(operatorImage({ installation })).toBe('ghcr.io/domain-operators/kafka-operator:0.1.0');
  });

  it('keeps only the examples of the selected operators', () => {
    const systems = ['kafka'] as const;
    expect(belongsTo({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }, systems)).toBe(true);
    expect(belongsTo({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kafka-operator-system-t1' } }, systems)).toBe(true);
    expect(belongsTo({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'opensearch-operator-system' } }, systems)).toBe(false);
    expect(belongsTo({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'opensearch-operator-system' } }, systems)).toBe(false);
    expect(belongsTo({ apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisReplication', metadata: { name: 'c', namespace: 'team-a' } }, systems)).toBe(false);
    expect(belongsTo({ apiVersion: 'kafka.domain-operators.io/v1alpha1', kind: 'KafkaTopic', metadata: { name: 't', namespace: 'team-a' } }, systems)).toBe(true);
  });

  it('asks kubectl for the categories of the running operators', () => {
    expect(kubectlGetArgs('.testenv/kubeconfig', ['kafka', 'opensearch', 'redis'])).toEqual(['--kubeconfig', '.testenv/kubeconfig', 'get', 'kafka,opensearch,redis', '-A']);
  });
});

describe('admissionPoliciesLine', () => {
  it('names the policies a release installed and what their bindings do, or that there are none', () => {
    const policy = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'kafka-operator-tenancy' } };
    const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'kafka-operator-tenancy' }, spec: { validationActions: ['Deny'] } };
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'kafka-operator' } };
    expect(admissionPoliciesLine([deployment, policy, binding])).toBe('admission policies: kafka-operator-tenancy (bindings: Deny)');
    expect(admissionPoliciesLine([deployment])).toBe('admission policies: none (admissionPolicies.enabled is false)');
  });
});

