import { describe, expect, it } from 'vitest';
import { mapPath, mapPathsInText, sortMappings } from './path-map.ts';

const mappings = [
  { containerPath: '/data', hostPath: '/h/pvc/ns/data-redis-0' },
  { containerPath: '/etc/redis/', hostPath: '/h/pods/u/volumes/config' },
  { containerPath: '/etc/redis/users.acl', hostPath: '/h/pods/u/volumes/acl/users.acl' },
];

describe('mapPath', () => {
  it('maps exact paths and paths below a mount', () => {
    expect(mapPath('/data', mappings)).toBe('/h/pvc/ns/data-redis-0');
    expect(mapPath('/data/', mappings)).toBe('/h/pvc/ns/data-redis-0');
    expect(mapPath('/etc/redis/redis.conf', mappings)).toBe('/h/pods/u/volumes/config/redis.conf');
  });

  it('prefers the longest (subPath) mount', () => {
    expect(mapPath('/etc/redis/users.acl', mappings)).toBe('/h/pods/u/volumes/acl/users.acl');
  });

  it('leaves unmounted paths alone', () => {
    expect(mapPath('/database', mappings)).toBeUndefined();
    expect(mapPath('/tmp', mappings)).toBeUndefined();
  });
});

describe('mapPathsInText', () => {
  it('rewrites config directives', () => {
    const conf = 'dir /data\naclfile "/etc/redis/users.acl"\ninclude /etc/redis/extra.conf\nlogfile /var/log/r.log\n';
    expect(mapPathsInText(conf, mappings)).toBe(
      'dir /h/pvc/ns/data-redis-0\naclfile "/h/pods/u/volumes/acl/users.acl"\ninclude /h/pods/u/volumes/config/extra.conf\nlogfile /var/log/r.log\n',
    );
  });

  it('rewrites arguments and key=value forms but not look-alikes', () => {
    expect(mapPathsInText('/etc/redis/redis.conf', mappings)).toBe('/h/pods/u/volumes/config/redis.conf');
    expect(mapPathsInText('--dir=/data', mappings)).toBe('--dir=/h/pvc/ns/data-redis-0');
    expect(mapPathsInText('/database /mydata x/data', mappings)).toBe('/database /mydata x/data');
  });

  it('ignores root mounts and is identity without mappings', () => {
    expect(sortMappings([{ containerPath: '/', hostPath: '/x' }])).toEqual([]);
    expect(mapPathsInText('dir /data', [])).toBe('dir /data');
  });
});
