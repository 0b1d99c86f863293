import { ensureTestEnv } from '@domain-operators/testenv';
import { metadataV12, type Connection } from '@platformatic/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReconnectingConnection } from './connection.ts';
import { isKafkaAdminError } from './errors.ts';

let connection: ReconnectingConnection;

beforeAll(async () => {
  const { kafka } = await ensureTestEnv(['kafka']);
  connection = new ReconnectingConnection({ bootstrapServers: kafka.bootstrapServers, sasl: kafka.superUser });
});

afterAll(async () => {
  await connection.close();
});

function metadata(c: Connection): Promise<unknown> {
  return metadataV12.api.async(c, [], false, false);
}

describe('ReconnectingConnection against the real broker', () => {
  it('reuses one connection across calls', async () => {
    let first: Connection | undefined;
    await connection.use('probe', (c) => {
      first = c;
      return metadata(c);
    });
    await connection.use('probe', (c) => {
      expect(c).toBe(first);
      return metadata(c);
    });
  });

  it('reconnects after the connection breaks under a request', async () => {
    let broken: Connection | undefined;
    const err: unknown = await connection
      .use('broken request', (c) => {
        broken = c;
        c.socket.destroy();
        return metadata(c);
      })
      .catch((e: unknown) => e);
    expect(isKafkaAdminError(err, 'KafkaUnavailable')).toBe(true);
    await connection.use('after the break', (c) => {
      expect(c).not.toBe(broken);
      return metadata(c);
    });
  });
});
