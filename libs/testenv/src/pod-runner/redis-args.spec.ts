import { describe, expect, it } from 'vitest';
import { buildRedisArgs } from './redis-args.ts';

const mappings = [
  { containerPath: '/etc/redis', hostPath: '/h/cfg' },
  { containerPath: '/data', hostPath: '/h/pvc' },
];

describe('buildRedisArgs', () => {
  it('expands, maps paths and appends port, dir, bind and daemonize', () => {
    const line = buildRedisArgs({
      container: { name: 'redis', ports: [{ containerPort: 7000 }] },
      argv: ['/etc/redis/redis.conf', '--requirepass', '$(PASS)'],
      env: new Map([['PASS', 'pw']]),
      mappings,
      podIP: '127.0.4.5',
      scratchDir: '/h/scratch',
      readText: () => 'appendonly yes\n',
    });
    expect(line.args).toEqual([
      '/h/cfg/redis.conf', '--requirepass', 'pw', '--port', '7000', '--dir', '/h/pvc',
      '--bind', '127.0.4.5', '--daemonize', 'no', '--logfile', '',
    ]);
    expect(line.port).toBe(7000);
    expect(line.cwd).toBe('/h/pvc');
  });

  it('keeps an explicit --port and a config dir', () => {
    const line = buildRedisArgs({
      container: { name: 'redis' },
      argv: ['/etc/redis/redis.conf', '--port', '6380'],
      env: new Map(),
      mappings,
      podIP: '127.0.4.5',
      scratchDir: '/h/scratch',
      readText: () => 'dir /h/pvc\n',
    });
    expect(line.port).toBe(6380);
    expect(line.args).not.toContain('--dir');
    expect(line.args.filter((a) => a === '--port')).toHaveLength(1);
    expect(line.cwd).toBe('/h/pvc');
  });

  it('defaults to 6379 and the scratch dir without mounts', () => {
    const line = buildRedisArgs({
      container: { name: 'redis' },
      argv: [],
      env: new Map(),
      mappings: [],
      podIP: '127.0.4.5',
      scratchDir: '/h/scratch',
      readText: () => undefined,
    });
    expect(line.args).toEqual(['--port', '6379', '--dir', '/h/scratch', '--bind', '127.0.4.5', '--daemonize', 'no', '--logfile', '']);
  });
});
