import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  RbacAuthorizationV1Api,
  VersionApi,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiserverInfo } from '../env-file.ts';
import { ensureTestEnv } from '../ensure.ts';

interface AuditEvent {
  readonly verb: string;
  readonly user: { readonly username: string };
  readonly objectRef?: { readonly resource?: string; readonly namespace?: string; readonly name?: string };
}

async function auditEvents(file: string): Promise<AuditEvent[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AuditEvent);
}

/** A KubeConfig for the same server that authenticates with a bearer token only. */
function tokenConfig(admin: KubeConfig, info: ApiserverInfo, token: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'testenv', server: info.url, caFile: info.caFile, skipTLSVerify: false }],
    users: [{ name: 'sa', token }],
    contexts: [{ name: 'sa', cluster: 'testenv', user: 'sa' }],
    currentContext: 'sa',
  });
  expect(admin.getCurrentCluster()?.server).toBe(info.url);
  return kc;
}

describe('testenv control plane (real etcd, kube-apiserver, kube-controller-manager)', () => {
  let info: ApiserverInfo;
  let kc: KubeConfig;
  const ns = `cp-int-${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    info = (await ensureTestEnv(['apiserver'])).apiserver;
    kc = new KubeConfig();
    kc.loadFromFile(info.kubeconfig);
    await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: ns } } });
  });

  afterAll(async () => {
    await kc.makeApiClient(CoreV1Api).deleteNamespace({ name: ns }).catch(() => undefined);
  });

  it('reports the pinned Kubernetes version', async () => {
    const version = await kc.makeApiClient(VersionApi).getCode();
    expect(version.gitVersion).toBe(info.kubernetesVersion);
    expect(version.gitVersion).toMatch(/^v1\.(3[5-9]|[4-9]\d)\.\d+$/);
  });

  it('creates a CRD and a custom resource and reads them back', async () => {
    const group = `int${randomBytes(3).toString('hex')}.testenv.domain-operators.io`;
    await kc.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({
      body: {
        metadata: { name: `gadgets.${group}` },
        spec: {
          group,
          scope: 'Namespaced',
          names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' } } } } } },
            },
          ],
        },
      },
    });
    const custom = kc.makeApiClient(CustomObjectsApi);
    const body = { apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name: 'g1', namespace: ns }, spec: { color: 'teal' } };
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        await custom.createNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'gadgets', body });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200)); // until the CRD is established
      }
    }
    const read = (await custom.getNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'gadgets', name: 'g1' })) as { spec: { color: string } };
    expect(read.spec.color).toBe('teal');
    await kc.makeApiClient(ApiextensionsV1Api).deleteCustomResourceDefinition({ name: `gadgets.${group}` });
  });

  it('denies a ServiceAccount token without a role, allows it once a Role is bound, and audits those writes', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: 'reader' } } });
    const token = (await core.createNamespacedServiceAccountToken({ namespace: ns, name: 'reader', body: { spec: { audiences: [], expirationSeconds: 600 } } })).status?.token;
    expect(token).toBeTruthy();
    const asReader = tokenConfig(kc, info, token ?? '').makeApiClient(CoreV1Api);

    await expect(asReader.listNamespacedConfigMap({ namespace: ns })).rejects.toMatchObject({ code: 403 });

    const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({ namespace: ns, body: { metadata: { name: 'cm-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] } });
    await rbac.createNamespacedRoleBinding({
      namespace: ns,
      body: {
        metadata: { name: 'cm-reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: ns }],
      },
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await asReader.listNamespacedConfigMap({ namespace: ns });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100)); // RBAC caches catch up
      }
    }
    await expect(asReader.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'nope' } } })).rejects.toMatchObject({ code: 403 });

    const events = await auditEvents(info.auditLog);
    const mine = events.filter((e) => e.objectRef?.namespace === ns && e.user.username === 'admin');
    expect(mine.map((e) => `${e.verb} ${e.objectRef?.resource ?? ''}/${e.objectRef?.name ?? ''}`)).toEqual(
      expect.arrayContaining(['create serviceaccounts/reader', 'create roles/cm-reader', 'create rolebindings/cm-reader']),
    );
    expect(events.filter((e) => e.objectRef?.namespace === ns && e.verb === 'list')).toEqual([]);
  });

  it('runs the controller-manager: namespaces finish terminating and owner references cascade', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const owner = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'owner' } } });
    await core.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: 'owned', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid ?? '' }] } },
    });
    await core.deleteNamespacedConfigMap({ namespace: ns, name: 'owner' });
    const deadline = Date.now() + 30_000;
    let gone = false;
    while (!gone && Date.now() < deadline) {
      gone = await core.readNamespacedSecret({ namespace: ns, name: 'owned' }).then(
        () => false,
        (err: unknown) => (err as { code?: number }).code === 404,
      );
      if (!gone) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(gone).toBe(true);

    const temp = `${ns}-gone`;
    await core.createNamespace({ body: { metadata: { name: temp } } });
    await core.createNamespacedConfigMap({ namespace: temp, body: { metadata: { name: 'x' } } });
    await core.deleteNamespace({ name: temp });
    let finished = false;
    const until = Date.now() + 60_000;
    while (!finished && Date.now() < until) {
      finished = await core.readNamespace({ name: temp }).then(
        () => false,
        (err: unknown) => (err as { code?: number }).code === 404,
      );
      if (!finished) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(finished).toBe(true);
  });
});
