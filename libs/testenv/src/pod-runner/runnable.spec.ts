import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { redisArgv, runnability } from './runnable.ts';

function pod(containers: V1Container[], initContainers?: V1Container[]): V1Pod {
  return { spec: { containers, ...(initContainers === undefined ? {} : { initContainers }) } };
}

describe('redisArgv', () => {
  it('follows the official entrypoint rules', () => {
    expect(redisArgv({ name: 'r' })).toEqual([]);
    expect(redisArgv({ name: 'r', args: ['/etc/redis/redis.conf', '--port', '7000'] })).toEqual(['/etc/redis/redis.conf', '--port', '7000']);
    expect(redisArgv({ name: 'r', args: ['--appendonly', 'yes'] })).toEqual(['--appendonly', 'yes']);
    expect(redisArgv({ name: 'r', args: ['redis-server', '--save', ''] })).toEqual(['--save', '']);
    expect(redisArgv({ name: 'r', command: ['/usr/local/bin/redis-server'], args: ['/c/r.conf'] })).toEqual(['/c/r.conf']);
    expect(redisArgv({ name: 'r', command: ['redis-server', '--port', '1'] })).toEqual(['--port', '1']);
  });

  it('rejects other programs', () => {
    expect(redisArgv({ name: 'r', command: ['sh', '-c', 'redis-server'] })).toBeUndefined();
    expect(redisArgv({ name: 'r', args: ['redis-sentinel'] })).toBeUndefined();
    expect(redisArgv({ name: 'r', command: ['redis-cli'] })).toBeUndefined();
  });
});

describe('runnability', () => {
  it('runs pods made only of redis-server containers', () => {
    const result = runnability(pod([{ name: 'a', image: 'redis:7.2' }, { name: 'b', image: 'docker.io/library/redis:7.2-alpine' }]));
    expect(result.runnable).toBe(true);
  });

  it('names the first image that cannot run', () => {
    const result = runnability(pod([{ name: 'a', image: 'redis:7.2' }, { name: 'web', image: 'nginx:1.27' }]));
    expect(result).toEqual({
      runnable: false,
      container: 'web',
      message: "testenv's pod runner runs only redis images; nginx:1.27 cannot run here",
    });
  });

  it('refuses redis images running another command', () => {
    const result = runnability(pod([{ name: 'a', image: 'redis', command: ['sh', '-c', 'sleep 1'] }]));
    expect(result.runnable).toBe(false);
  });

  it('refuses init containers', () => {
    expect(runnability(pod([{ name: 'a', image: 'redis' }], [{ name: 'init', image: 'busybox' }]))).toMatchObject({
      runnable: false,
      container: 'init',
      message: expect.stringContaining('busybox cannot run here') as unknown,
    });
    expect(runnability(pod([{ name: 'a', image: 'redis' }], [{ name: 'init', image: 'redis' }])).runnable).toBe(false);
  });

  it('refuses pods without containers', () => {
    expect(runnability(pod([])).runnable).toBe(false);
  });
});
