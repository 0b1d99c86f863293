import { describe, expect, it } from 'vitest';
import { fencingConfig, redisConf, restartHash, splitConfig } from './config-file.ts';

const users = {
  operator: { username: 'redis-operator', password: 'op-secret' },
  replication: { username: 'replication', password: 'repl-secret' },
  defaultPassword: 'default-secret',
};

describe('splitConfig', () => {
  it('sends immutable parameters to the file and the rest to CONFIG SET, keys lower-cased', () => {
    expect(splitConfig({ 'maxmemory-policy': 'allkeys-lru', Databases: '4', 'io-threads': '2' })).toEqual({
      dynamic: { 'maxmemory-policy': 'allkeys-lru' },
      static: { databases: '4', 'io-threads': '2' },
    });
  });
});

describe('redisConf', () => {
  it('holds the operator settings, the user config, hashed users and the include of the secret file, never a password', () => {
    const text = redisConf({ config: { 'maxmemory-policy': 'allkeys-lru', 'client-output-buffer-limit': 'normal 0 0 0' }, persistent: false, users });
    expect(text).toContain('port 6379\n');
    expect(text).toContain('dir /data\n');
    expect(text).toContain('maxmemory-policy allkeys-lru\n');
    expect(text).toContain('client-output-buffer-limit normal 0 0 0\n');
    expect(redisConf({ config: { 'maxmemory-policy': 'x\ninclude /etc/passwd' }, persistent: false, users })).toContain('maxmemory-policy "x\\x0ainclude /etc/passwd"\n');
    expect(text).toContain('save ""\n');
    expect(text).toContain('rdb-del-sync-files yes\n');
    expect(text).toMatch(/^user redis-operator on #[0-9a-f]{64} ~\* &\* \+@all$/m);
    expect(text).toMatch(/^user default on #[0-9a-f]{64} /m);
    expect(text).toContain('include /etc/redis-secret/replication-auth.conf\n');
    for (const secret of ['op-secret', 'repl-secret', 'default-secret']) expect(text).not.toContain(secret);
  });

  it('lets the user override the persistence defaults and adds none with storage', () => {
    expect(redisConf({ config: { save: '60 1' }, persistent: false, users })).toContain('save 60 1\n');
    expect(redisConf({ config: {}, persistent: true, users })).not.toContain('save');
  });
});

describe('write fencing', () => {
  it('is written to the file of every member and is no restart: a change is applied live', () => {
    const fencing = { minReplicasToWrite: 1, maxLagSeconds: 10 };
    const text = redisConf({ config: {}, persistent: false, users, fencing });
    expect(text).toContain('min-replicas-to-write 1\n');
    expect(text).toContain('min-replicas-max-lag 10\n');
    expect(redisConf({ config: {}, persistent: false, users })).not.toContain('min-replicas');
    expect(restartHash({ config: {}, persistent: false, users, fencing })).toBe(restartHash({ config: {}, persistent: false, users, fencing: { minReplicasToWrite: 0, maxLagSeconds: 3 } }));
    expect(fencingConfig(fencing)).toEqual({ 'min-replicas-to-write': '1', 'min-replicas-max-lag': '10' });
  });
});

describe('restartHash', () => {
  it('changes with static parameters only, not with dynamic ones or the default password', () => {
    const base = restartHash({ config: { maxmemory: '1mb' }, persistent: false, users });
    expect(restartHash({ config: { maxmemory: '2mb' }, persistent: false, users: { ...users, defaultPassword: 'other' } })).toBe(base);
    expect(restartHash({ config: { maxmemory: '1mb', databases: '2' }, persistent: false, users })).not.toBe(base);
  });
});
