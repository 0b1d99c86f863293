// Helpers for integration tests against the real testenv apiserver. Not exported from the package.
import { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesObject } from '@kubernetes/client-node';
import { ensureTestEnv } from '@domain-operators/testenv';
import { Client } from '../client/client.ts';
import { isAlreadyExists, isNotFound } from '../core/errors.ts';
import { coreTypes, resourceType } from '../client/resource-type.ts';
import type { ResourceType } from '../client/resource-type.ts';
import type { Condition } from '../core/conditions.ts';
import { HttpsRestTransport } from '../client/rest.ts';
import type { DeletionPolicy } from '../crd/crd.ts';
import type { ExternalResourceStatus } from '../external/external-resource.ts';

/** A live connection to the testenv apiserver as its admin. */
export interface LiveCluster {
  readonly kubeConfig: KubeConfig;
  readonly client: Client;
}

/** Brings the testenv control plane up (reusing a running one) and connects to it as admin. */
export async function liveCluster(): Promise<LiveCluster> {
  const env = await ensureTestEnv(['apiserver']);
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(env.apiserver.kubeconfig);
  return { kubeConfig, client: new Client({ rest: await HttpsRestTransport.create(kubeConfig) }) };
}

/** The Widget test CRD: `widgets.test.domain-operators.io`, namespaced, spec.size, status subresource. */
export const widgetType: ResourceType<Widget> = resourceType<Widget>({ group: 'test.domain-operators.io', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

/** A Widget custom resource. */
export interface Widget extends KubernetesObject {
  spec?: { size?: number };
  status?: { observedGeneration?: number };
}

/** Installs the Widget CRD (idempotent) and waits until it is Established and served. */
export async function installWidgetCrd(cluster: LiveCluster): Promise<void> {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.test.domain-operators.io' },
    spec: {
      group: 'test.domain-operators.io',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { size: { type: 'integer', minimum: 0 } } },
                status: { type: 'object', properties: { observedGeneration: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    },
  };
  try {
    await cluster.client.create(coreTypes.customResourceDefinition, crd);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  await eventually(async () => {
    await cluster.client.list(widgetType, { namespace: 'default', limit: 1 });
    return true;
  }, 30_000);
}

/** Creates a fresh namespace named `<prefix>-<random>`. */
export async function freshNamespace(cluster: LiveCluster, prefix: string): Promise<string> {
  const name = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
  await cluster.client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return name;
}

/** Deletes a namespace; never throws for one already gone. */
export async function deleteNamespace(cluster: LiveCluster, name: string): Promise<void> {
  try {
    await cluster.client.delete(coreTypes.namespace, { namespace: undefined, name });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/** Polls `check` every 100 ms until it returns true; rejects with the last error or a timeout message. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms${last instanceof Error ? `: ${last.message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A test kind whose status has conditions (the Widget's status schema only has observedGeneration). */
export interface Gauge extends KubernetesObject {
  spec?: { level?: number };
  status?: { observedGeneration?: number; level?: number; conditions?: Condition[] };
}

export const gaugeType: ResourceType<Gauge> = resourceType<Gauge>({ group: 'test.domain-operators.io', version: 'v1', kind: 'Gauge', plural: 'gauges', namespaced: true });

/** OpenAPI schema of a Kubernetes Condition. */
const conditionSchema = {
  type: 'object',
  required: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
  properties: {
    type: { type: 'string' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    reason: { type: 'string', pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' },
    message: { type: 'string', maxLength: 32768 },
    lastTransitionTime: { type: 'string', format: 'date-time' },
    observedGeneration: { type: 'integer', minimum: 0 },
  },
};

/** Installs the Gauge CRD (idempotent) and waits until it is served. */
export async function installGaugeCrd(cluster: LiveCluster): Promise<void> {
  try {
    await cluster.client.create(coreTypes.customResourceDefinition, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gauges.test.domain-operators.io' },
      spec: {
        group: 'test.domain-operators.io',
        scope: 'Namespaced',
        names: { plural: 'gauges', singular: 'gauge', kind: 'Gauge', listKind: 'GaugeList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', properties: { level: { type: 'integer' } } },
                  status: {
                    type: 'object',
                    properties: {
                      observedGeneration: { type: 'integer' },
                      level: { type: 'integer' },
                      conditions: { type: 'array', items: conditionSchema },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  await eventually(async () => {
    await cluster.client.list(gaugeType, { namespace: 'default', limit: 1 });
    return true;
  }, 30_000);
}

const GADGET_GROUP = 'test.domain-operators.io';

/** A Gadget custom resource: one external object per resource, for the external-resource reconciler's tests. */
export interface Gadget extends KubernetesObject {
  spec: { topic: string; config: Record<string, string>; deletionPolicy?: DeletionPolicy };
  status?: ExternalResourceStatus;
}

/** The Gadget test CRD: `gadgets.test.domain-operators.io`, namespaced, status subresource. */
export const gadgetType: ResourceType<Gadget> = resourceType<Gadget>({ group: GADGET_GROUP, version: 'v1', kind: 'Gadget', plural: 'gadgets', namespaced: true });

/** Installs the Gadget CRD (idempotent) and waits until it is served. */
export async function installGadgetCrd(cluster: LiveCluster): Promise<void> {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gadgets.${GADGET_GROUP}` },
    spec: {
      group: GADGET_GROUP,
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    topic: { type: 'string' },
                    config: { type: 'object', additionalProperties: { type: 'string' } },
                    deletionPolicy: { type: 'string', enum: ['Retain', 'Delete'], default: 'Retain' },
                  },
                },
                status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              },
            },
          },
        },
      ],
    },
  };
  try {
    await cluster.client.create(coreTypes.customResourceDefinition, crd);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  await eventually(async () => {
    await cluster.client.list(gadgetType, { namespace: 'default', limit: 1 });
    return true;
  }, 30_000);
}
