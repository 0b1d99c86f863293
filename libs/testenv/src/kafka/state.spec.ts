import { describe, expect, it } from 'vitest';
import type { KafkaState } from './state.ts';
import { generateClusterId, rebuiltState } from './state.ts';

const previous: KafkaState = {
  clusterId: 'AAAAAAAAAAAAAAAAAAAAAA',
  info: { bootstrapServers: ['10.0.0.1:19192', '10.0.0.1:19195'], superUser: { username: 'admin', password: 'pw', mechanism: 'SCRAM-SHA-512' }, version: '4.3.1' },
};

describe('rebuiltState', () => {
  it('keeps the addresses, the super user and the version, and takes a new cluster id', () => {
    const state = rebuiltState(previous, () => 'BBBBBBBBBBBBBBBBBBBBBB');
    expect(state).toEqual({ info: previous.info, clusterId: 'BBBBBBBBBBBBBBBBBBBBBB' });
  });

  it('never gives the old id back: it draws again', () => {
    const ids = [previous.clusterId, previous.clusterId, 'CCCCCCCCCCCCCCCCCCCCCC'];
    expect(rebuiltState(previous, () => ids.shift() ?? '').clusterId).toBe('CCCCCCCCCCCCCCCCCCCCCC');
  });

  it('draws Kafka-shaped ids by default (22 base64url characters, never a leading dash)', () => {
    const { clusterId } = rebuiltState(previous);
    expect(clusterId).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
    expect(generateClusterId()).not.toBe(clusterId);
  });
});
