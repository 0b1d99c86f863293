import type { KubernetesObject, V1Deployment, V1Pod } from '@kubernetes/client-node';
import { coreTypes, isForbidden } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { adminClient, deleteNamespace, freshNamespace, randomSuffix, singleOfKind, typeOfManifest } from '@domain-operators/e2e-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARTS, exampleValuesFiles } from './chart-files.ts';
import type { ChartRef } from './chart-files.ts';
import { renderChart } from './render.ts';

// The chart's objects applied with server-side dry run to the real apiserver, in a namespace that enforces Pod
// Security "restricted" (as `helm template … | kubectl apply --dry-run=server -f -` would). Pod Security only
// warns about a Deployment, so the Deployment's pod template is also submitted as a Pod, which is enforced.

const RESTRICTED = {
  'pod-security.kubernetes.io/enforce': 'restricted',
  'pod-security.kubernetes.io/enforce-version': 'latest',
  'pod-security.kubernetes.io/warn': 'restricted',
};

let client: Client;
let namespace: string;

beforeAll(async () => {
  client = await adminClient();
  namespace = await freshNamespace(RESTRICTED, 'charts-dry-run');
});

afterAll(async () => {
  await deleteNamespace(namespace);
});

async function dryRunApply(object: KubernetesObject): Promise<void> {
  await client.patch(
    typeOfManifest(object),
    { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' },
    { type: 'apply', body: object, fieldManager: 'chart-validation', force: true },
    { dryRun: true },
  );
}

/**
 * The operator pod the chart's Deployment would create, with its ServiceAccount really created first (the
 * ServiceAccount admission plugin refuses a pod whose account does not exist, even in a dry run).
 */
async function operatorPod(chart: ChartRef): Promise<V1Pod> {
  const objects = await renderChart(chart, { releaseName: `dry-${randomSuffix()}`, namespace });
  const serviceAccount = singleOfKind(objects, 'ServiceAccount');
  await client.create(coreTypes.serviceAccount, serviceAccount);
  return podOf(singleOfKind(objects, 'Deployment'));
}

function podOf(deployment: V1Deployment): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${deployment.metadata?.name ?? 'operator'}-probe`, namespace: deployment.metadata?.namespace ?? '', labels: deployment.spec?.template.metadata?.labels ?? {} },
    spec: deployment.spec?.template.spec ?? { containers: [] },
  };
}

describe.each(CHARTS)('chart $name against the apiserver', (chart) => {
  // The ServiceMonitor needs the Prometheus Operator's CRD, which testenv does not install; it is rendered and
  // linted elsewhere.
  const valueSets: readonly (readonly [string, readonly string[]])[] = [['defaults', []], ...exampleValuesFiles().map((file) => [file.split('/').at(-1) ?? file, [file]] as const)];

  it.each(valueSets)('every object of the %s rendering passes a server-side dry run', async (_label, valuesFiles) => {
    const objects = await renderChart(chart, {
      releaseName: `dry-${randomSuffix()}`,
      namespace,
      includeCrds: true,
      valuesFiles,
      setJson: { serviceMonitor: { enabled: false } },
    });
    const refused: string[] = [];
    for (const object of objects) {
      try {
        await dryRunApply(object);
      } catch (err) {
        refused.push(`${object.kind ?? '?'} ${object.metadata?.name ?? '?'}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it("runs the Deployment's pod under enforced Pod Security restricted", async () => {
    await expect(client.create(coreTypes.pod, await operatorPod(chart), { dryRun: true })).resolves.toMatchObject({ kind: 'Pod' });
  });

  it('is checked by a namespace that really enforces restricted: the same pod without its security context is refused', async () => {
    const insecure = structuredClone(await operatorPod(chart));
    if (insecure.spec === undefined) throw new Error('the pod has no spec');
    insecure.spec.securityContext = {};
    for (const container of insecure.spec.containers) container.securityContext = {};
    const refusal = client.create(coreTypes.pod, insecure, { dryRun: true });
    await expect(refusal).rejects.toSatisfy(isForbidden);
    await expect(refusal).rejects.toThrow(/violates PodSecurity "restricted:latest"/);
  });
});
