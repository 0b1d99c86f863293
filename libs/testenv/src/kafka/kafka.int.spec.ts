import { NODE_IP } from '../node/addresses.ts';
import { Admin } from '@platformatic/kafka';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KafkaInfo } from '../env-file.ts';
import { ensureTestEnv } from '../ensure.ts';
import { kafkaSmokeCheck } from './smoke.ts';

describe('testenv kafka (real broker)', () => {
  let kafka: KafkaInfo;

  beforeAll(async () => {
    kafka = (await ensureTestEnv(['kafka'])).kafka;
  });

  it('creates a topic, denies a SCRAM user without ACLs, allows it with one, and round-trips messages', async () => {
    await expect(kafkaSmokeCheck(kafka)).resolves.toBeUndefined();
  });

  it('refuses a wrong SCRAM password', async () => {
    const admin = new Admin({
      clientId: 'testenv-int',
      bootstrapBrokers: [...kafka.bootstrapServers],
      sasl: { mechanism: kafka.superUser.mechanism, username: kafka.superUser.username, password: 'not-the-password' },
      retries: 0,
    });
    try {
      await expect(admin.listTopics()).rejects.toThrow();
    } finally {
      await admin.close().catch(() => undefined);
    }
  });

  it('reports the version it runs', () => {
    expect(kafka.version).toMatch(/^4\.\d+\.\d+$/);
    expect(kafka.bootstrapServers).toEqual([`${NODE_IP}:19092`]);
  });
});
