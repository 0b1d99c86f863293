import { describe, expect, it } from 'vitest';
import { imageRepository, isRedisImage } from './image.ts';

describe('isRedisImage', () => {
  it.each([
    'redis',
    'redis:7.2',
    'docker.io/library/redis:7.2-alpine',
    'localhost:5000/redis',
    'localhost:5000/cache/redis:7@sha256:0123abcd',
    'redis@sha256:0123abcd',
    'bitnami/redis:7.2',
  ])('accepts %s', (image) => {
    expect(isRedisImage(image)).toBe(true);
  });

  it.each(['nginx', 'nginx:1.27', 'redis-stack:7', 'myredis', 'redis/other:1', 'localhost:5000/redisx', ''])('rejects %s', (image) => {
    expect(isRedisImage(image)).toBe(false);
  });
});

describe('imageRepository', () => {
  it('keeps a registry port and drops tag and digest', () => {
    expect(imageRepository('localhost:5000/a/redis:7@sha256:ff')).toBe('localhost:5000/a/redis');
    expect(imageRepository('localhost:5000/redis')).toBe('localhost:5000/redis');
  });
});
