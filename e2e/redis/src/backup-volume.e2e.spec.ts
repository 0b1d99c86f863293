// RedisBackup to a volume claim on the real node (issue #17): the operator cannot mount the user's claim, so an agent
// Pod of its own image, in a namespace that enforces Pod Security `restricted`, takes the snapshot over the network
// from a linked replica and writes it into a local-path claim (StorageClass `standard`). Checked independently: a
// separate Pod mounting the claim (as the members' uid, as a restore would) finds the file with the SHA-256 and size
// in status and no `.partial` file beside it; the file read from the local-path host directory loads into a fresh
// redis-server with every key written with WAIT 1. Admission refuses a destination with both s3 and volume and a
// volume backup with deletionPolicy Delete; a missing claim keeps the backup Pending with DestinationUnavailable. An
// operator SIGKILLed as soon as the agent Pod exists completes the status from that same Pod after its restart.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshNamespace, startOperator, targetsExistingCluster } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, isNotFound, resourceType } from '@domain-operators/reconcile';
import type { Condition, CustomResourceObject } from '@domain-operators/reconcile';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, cluster, command, deleteNamespace, eventually, kinds, memberPods, operatorPassword, podLog, redisImage, redisReplications, replicationReady } from './fixtures.ts';
import type { Cluster } from './fixtures.ts';

/** What the suite writes and reads of a RedisBackup (written out: e2e suites do not import the operator). */
type RedisBackup = CustomResourceObject<
  {
    replicationRef: { name: string };
    destination: { volume?: { claimName: string; path?: string }; s3?: { bucket: string; credentialsSecretRef: { name: string } } };
    deletionPolicy?: 'Retain' | 'Delete';
  },
  { phase?: string; member?: string; sizeBytes?: number; sha256?: string; location?: string; replicationOffset?: number; startTime?: string; conditions?: Condition[] }
>;

const backupType = resourceType<RedisBackup>({ group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisBackup', plural: 'redisbackups', namespaced: true });
const NAME = 'cache';
const CLAIM = 'backups';
const KEYS = 500;

let c: Cluster;
let ns = '';
let operator: OperatorProcess | undefined;
let password = '';
let image = '';

async function finished(name: string): Promise<RedisBackup> {
  return eventually(
    async () => {
      const b = await c.client.get(backupType, { namespace: ns, name });
      return b.status?.phase === 'Succeeded' || b.status?.phase === 'Failed' ? b : undefined;
    },
    180_000,
    `RedisBackup ${name} finished`,
  );
}

function volumeBackup(name: string, destination: RedisBackup['spec']['destination'], extra: Partial<RedisBackup['spec']> = {}): RedisBackup {
  return { apiVersion: API_VERSION, kind: 'RedisBackup', metadata: { namespace: ns, name }, spec: { replicationRef: { name: NAME }, destination, ...extra } };
}

/** Key count and one value of `rdb` as a fresh redis-server on the host loads it. */
async function loaded(rdb: Buffer, key: string): Promise<{ keys: number; value: string | null }> {
  const dir = await mkdtemp(join(tmpdir(), 'e2e-rdb-'));
  await writeFile(join(dir, 'dump.rdb'), rdb);
  const port = 21_000 + Math.floor(Math.random() * 20_000);
  const server = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--dbfilename', 'dump.rdb', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  try {
    return await eventually(
      async () => {
        const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
        redis.on('error', () => undefined);
        try {
          await redis.connect();
          return { keys: await redis.dbsize(), value: await redis.get(key) };
        } finally {
          redis.disconnect();
        }
      },
      10_000,
      'redis-server loaded the backup',
    );
  } finally {
    server.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `script` in a Pod of the Redis image that mounts the claim read-only as uid 999 (Pod Security restricted); resolves with its log. */
async function inClaim(name: string, script: string): Promise<string> {
  await c.client.create(coreTypes.pod, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: ns, name },
    spec: {
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 1,
      automountServiceAccountToken: false,
      securityContext: { runAsNonRoot: true, runAsUser: 999, runAsGroup: 999, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: 'reader',
          image,
          imagePullPolicy: 'Never',
          command: ['sh', '-c', script],
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true },
          volumeMounts: [{ name: 'claim', mountPath: '/claim', readOnly: true }],
        },
      ],
      volumes: [{ name: 'claim', persistentVolumeClaim: { claimName: CLAIM, readOnly: true } }],
    },
  });
  const pod = await eventually(
    async () => {
      const p = await c.client.get(coreTypes.pod, { namespace: ns, name });
      return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed' ? p : undefined;
    },
    60_000,
    `Pod ${name} finished`,
  );
  const log = await podLog(ns, name, 'reader');
  expect(pod.status?.phase, log).toBe('Succeeded');
  return log;
}

describe.skipIf(targetsExistingCluster())('RedisBackup to a volume claim on the real node', () => {
  beforeAll(async () => {
    c = await cluster();
    image = await redisImage();
    // The agent Pod meets `restricted`, or the real admission refuses it here.
    ns = await freshNamespace({ 'pod-security.kubernetes.io/enforce': 'restricted' }, 'e2e-redis-backup-volume');
    operator = await startOperator({ system: 'redis', values: { watchNamespaces: [ns] } });
    await c.client.create(kinds.persistentVolumeClaim, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { namespace: ns, name: CLAIM },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '256Mi' } } },
    });
    await c.client.create(redisReplications.type, { apiVersion: API_VERSION, kind: 'RedisReplication', metadata: { namespace: ns, name: NAME }, spec: { replicas: 2, image } });
    await replicationReady(c, ns, NAME, 180_000);
    password = await operatorPassword(c, ns, NAME);
  });

  afterAll(async () => {
    await operator?.stop();
    if (ns !== '') await deleteNamespace(c, ns);
  });

  it('an agent Pod writes a linked replica’s snapshot into the claim under its own key: the file has the digest and size in status and every key written with WAIT 1', async () => {
    const rr = await replicationReady(c, ns, NAME);
    const primary = (await memberPods(c, ns, NAME)).find((p) => p.metadata?.name === rr.status?.primary);
    if (primary === undefined) throw new Error('no primary Pod');
    for (let i = 0; i < KEYS; i += 50) {
      await command(primary, password, ['MSET', ...Array.from({ length: 50 }, (_, j) => [`k:${i + j}`, `v${i + j}`]).flat()]);
    }
    expect(await command(primary, password, ['WAIT', '1', '10000'])).toBe(1);

    const created = await c.client.create(backupType, volumeBackup('first', { volume: { claimName: CLAIM, path: '/redis' } }));
    const backup = await finished('first');
    expect(backup.status?.phase, JSON.stringify(backup.status?.conditions)).toBe('Succeeded');
    expect(backup.status?.conditions?.find((x) => x.type === 'Ready')).toMatchObject({ status: 'True', reason: 'BackupSucceeded' });
    expect(backup.status?.member).not.toBe(primary.metadata?.name);
    expect(backup.status?.replicationOffset).toBeGreaterThan(0);
    const prefix = `pvc://${CLAIM}/redis/${ns}/${NAME}/`;
    const location = backup.status?.location ?? '';
    expect(location.startsWith(prefix), location).toBe(true);
    const file = location.slice(prefix.length);
    expect(file).toMatch(new RegExp(`^[0-9]{14}-${(created.metadata.uid ?? '').replace(/-/g, '').slice(0, 8)}\\.rdb$`));
    const key = location.slice(`pvc://${CLAIM}/`.length);

    // The succeeded agent Pod is deleted; it ran the operator's image as the chart names it.
    const agentName = `first-backup-${(created.metadata.uid ?? '').replace(/-/g, '').slice(0, 8)}`;
    await eventually(
      () =>
        c.client.get(coreTypes.pod, { namespace: ns, name: agentName }).then(
          () => false,
          (err: unknown) => isNotFound(err),
        ),
      30_000,
      'the agent Pod deleted',
    );

    // A separate Pod, as the members' uid, reads the claim: the file, its digest and size, nothing half-written beside it.
    const log = await inClaim('reader', `set -e; sha256sum /claim/${key}; wc -c < /claim/${key}; ls -a /claim/redis/${ns}/${NAME}`);
    const [shaLine = '', sizeLine = '', ...listing] = log.trim().split('\n');
    expect(shaLine.split(/\s+/)[0]).toBe(backup.status?.sha256);
    expect(Number(sizeLine.trim())).toBe(backup.status?.sizeBytes);
    expect(listing.filter((entry) => entry !== '.' && entry !== '..')).toEqual([file]);

    // The same bytes, read from the local-path directory on the host, load with every key.
    const claim = await c.client.get(kinds.persistentVolumeClaim, { namespace: ns, name: CLAIM });
    const pv = await c.client.get(kinds.persistentVolume, { namespace: undefined, name: claim.spec?.volumeName ?? '' });
    const hostDir = pv.spec?.hostPath?.path ?? pv.spec?.local?.path ?? '';
    expect(hostDir).not.toBe('');
    const bytes = await readFile(join(hostDir, key));
    expect(bytes.length).toBe(backup.status?.sizeBytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(backup.status?.sha256);
    const content = await loaded(bytes, 'k:321');
    expect(content.value).toBe('v321');
    expect(content.keys).toBe(KEYS);
  });

  it('an operator killed while the agent Pod runs finds the Pod by its name on restart and completes the status from its report', async () => {
    const created = await c.client.create(backupType, volumeBackup('across-restart', { volume: { claimName: CLAIM, path: '/restart' } }));
    const agentName = `across-restart-backup-${(created.metadata.uid ?? '').replace(/-/g, '').slice(0, 8)}`;
    // Killed the moment its agent Pod exists: the agent finishes while the operator is down or starting again.
    const agent = await eventually(() => c.client.get(coreTypes.pod, { namespace: ns, name: agentName }).catch(() => undefined), 60_000, 'the agent Pod created');
    const running = await c.client.get(backupType, { namespace: ns, name: 'across-restart' });
    expect(running.status?.phase).toBe('Running');
    expect(await operator?.kill('SIGKILL')).toBeDefined();
    await operator?.restart();
    const backup = await finished('across-restart');
    expect(backup.status?.phase, JSON.stringify(backup.status?.conditions)).toBe('Succeeded');
    expect(backup.status?.startTime).toBe(running.status?.startTime);
    expect(backup.status?.location).toBe(running.status?.location);
    const key = (backup.status?.location ?? '').slice(`pvc://${CLAIM}/`.length);
    const log = await inClaim('reader-after-restart', `set -e; sha256sum /claim/${key}; ls -a /claim/restart/${ns}/${NAME}`);
    const [shaLine = '', ...listing] = log.trim().split('\n');
    expect(shaLine.split(/\s+/)[0]).toBe(backup.status?.sha256);
    expect(listing.filter((entry) => entry !== '.' && entry !== '..')).toEqual([key.split('/').at(-1)]);
    // One agent Pod for the backup: the one created before the kill did the work (then was deleted).
    let second = false;
    await eventually(
      () =>
        c.client.get(coreTypes.pod, { namespace: ns, name: agentName }).then(
          (p) => {
            if (p.metadata?.uid !== agent.metadata?.uid) second = true;
            return false;
          },
          (err: unknown) => isNotFound(err),
        ),
      30_000,
      'the agent Pod deleted',
    );
    expect(second).toBe(false);
  });

  it('admission refuses both destinations at once and deletionPolicy Delete for a volume', async () => {
    const both = await c.client.create(backupType, volumeBackup('both', { volume: { claimName: CLAIM }, s3: { bucket: 'bucket', credentialsSecretRef: { name: 's' } } })).then(
      () => 'created',
      (err: unknown) => String(err),
    );
    expect(both).toContain('exactly one of destination.s3 and destination.volume must be set');
    const deleting = await c.client.create(backupType, volumeBackup('deleting', { volume: { claimName: CLAIM } }, { deletionPolicy: 'Delete' })).then(
      () => 'created',
      (err: unknown) => String(err),
    );
    expect(deleting).toContain('deletionPolicy Delete is not supported for a volume destination');
  });

  it('keeps a backup to a missing claim Pending with DestinationUnavailable, with no agent Pod', async () => {
    await c.client.create(backupType, volumeBackup('no-claim', { volume: { claimName: 'absent' } }));
    const pending = await eventually(
      async () => {
        const b = await c.client.get(backupType, { namespace: ns, name: 'no-claim' });
        const ready = b.status?.conditions?.find((x) => x.type === 'Ready');
        return ready?.reason === 'DestinationUnavailable' ? b : undefined;
      },
      60_000,
      'no-claim Pending with DestinationUnavailable',
    );
    expect(pending.status?.phase).toBe('Pending');
    expect(pending.status?.conditions?.find((x) => x.type === 'Ready')?.message).toContain('PersistentVolumeClaim absent does not exist');
    const pods = await c.client.list(coreTypes.pod, { namespace: ns, labelSelector: 'app.kubernetes.io/component=backup-agent' });
    expect(pods.items.map((p) => p.metadata?.name)).toEqual([]);
  });
});
