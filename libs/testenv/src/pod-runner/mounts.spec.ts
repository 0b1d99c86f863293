import { describe, expect, it } from 'vitest';
import { containerMappings } from './mounts.ts';

describe('containerMappings', () => {
  it('maps mounts, subPath and subPathExpr', () => {
    const dirs = new Map([
      ['config', '/h/v/config'],
      ['data', '/h/pvc/ns/data-r-0'],
    ]);
    const mappings = containerMappings(
      {
        name: 'redis',
        volumeMounts: [
          { name: 'config', mountPath: '/etc/redis' },
          { name: 'config', mountPath: '/usr/local/etc/redis/redis.conf', subPath: 'redis.conf' },
          { name: 'data', mountPath: '/data', subPathExpr: '$(POD)' },
          { name: 'unknown', mountPath: '/x' },
        ],
      },
      dirs,
      new Map([['POD', 'r-0']]),
    );
    expect(mappings).toEqual([
      { containerPath: '/etc/redis', hostPath: '/h/v/config' },
      { containerPath: '/usr/local/etc/redis/redis.conf', hostPath: '/h/v/config/redis.conf' },
      { containerPath: '/data', hostPath: '/h/pvc/ns/data-r-0/r-0' },
    ]);
  });
});
