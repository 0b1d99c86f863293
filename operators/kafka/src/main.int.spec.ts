// main.ts as a real process (the way the chart runs it, with the admin kubeconfig here): it reconciles a topic to
// Ready and exits 0 on SIGTERM.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { coreTypes } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';
import { expect, it } from 'vitest';
import { kafkaConnections, kafkaTopics } from './api/v1alpha1/index.ts';
import { adminCluster, conditionOf, createConnection, deleteIfExists, eventually, freshNamespace, installCrds, KafkaChecker, suffix } from './test-support.int.ts';

it('main.ts runs the controllers as a process and stops gracefully on SIGTERM with exit code 0', async () => {
  const env = await ensureTestEnv(['apiserver', 'kafka']);
  const { client, kafka } = await adminCluster();
  await installCrds(client);
  const id = suffix();
  const namespace = await freshNamespace(client, 'main');
  const connection = `int-main-${id}`;
  await createConnection(client, kafka, namespace, connection);
  const checker = new KafkaChecker(kafka);
  const child = spawn(process.execPath, [fileURLToPath(new URL('./main.ts', import.meta.url)), '--metrics-bind-address=127.0.0.1:0', '--health-probe-bind-address=127.0.0.1:0'], {
    env: { ...process.env, KUBECONFIG: env.apiserver.kubeconfig, LOG_FORMAT: 'json', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => { resolve(code); }));
  try {
    await client.create(kafkaTopics.type, {
      apiVersion: kafkaTopics.apiVersion,
      kind: 'KafkaTopic',
      metadata: { name: `main-${id}`, namespace },
      spec: { connectionRef: { name: connection }, partitions: 2, replicationFactor: 1, deletionPolicy: 'Delete' },
    });
    await eventually(async () => (await conditionOf(client, kafkaTopics.type, namespace, `main-${id}`, 'Ready'))?.status === 'True', 60_000, `topic Ready (output: ${output.slice(-2000)})`);
    expect(await checker.topic(`main-${id}`)).toEqual({ partitions: 2, replicationFactor: 1 });
    await client.delete(kafkaTopics.type, { namespace, name: `main-${id}` });
    await eventually(async () => (await checker.topic(`main-${id}`)) === undefined, 30_000, 'topic deleted');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).not.toContain(kafka.superUser.password);
  } finally {
    child.kill('SIGKILL');
    await checker.deleteTopics([`main-${id}`]);
    await checker.close();
    await deleteIfExists(client, kafkaConnections.type, undefined, connection);
    await deleteIfExists(client, coreTypes.namespace, undefined, namespace);
  }
});
