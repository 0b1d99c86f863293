import { describe, expect, it } from 'vitest';
import { backupKey } from './backup-key.ts';

const input = { namespace: 'team-a', replication: 'cache', startedAt: new Date('2026-12-01T02:03:04.999Z'), uid: '6f1c2a9e-41d2-4c0b-9a55-0d6f2c1b7e10' };

describe('backupKey', () => {
  it('puts the namespace, replication, UTC second and uid prefix under the prefix', () => {
    expect(backupKey({ ...input, prefix: '/backups/redis/' })).toBe('backups/redis/team-a/cache/20261201020304-6f1c2a9e.rdb');
    expect(backupKey({ ...input, prefix: undefined })).toBe('team-a/cache/20261201020304-6f1c2a9e.rdb');
  });

  it('gives two backups of the same second different keys', () => {
    expect(backupKey({ ...input, prefix: 'p' })).not.toBe(backupKey({ ...input, prefix: 'p', uid: '0a1b2c3d-0000-0000-0000-000000000000' }));
  });

  it('refuses to make a key without a uid', () => {
    expect(() => backupKey({ ...input, prefix: 'p', uid: '' })).toThrow(/needs the RedisBackup's uid/);
  });
});
