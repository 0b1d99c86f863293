/**
 * The repository name of an image reference without registry host, tag or digest, e.g.
 * `docker.io/library/redis:7.2-alpine@sha256:…` → `docker.io/library/redis`. Pure.
 */
export function imageRepository(image: string): string {
  const withoutDigest = image.split('@')[0] ?? '';
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  return colon > lastSlash ? withoutDigest.slice(0, colon) : withoutDigest;
}

/**
 * True when `image` is a Redis image: the last path component of its repository is exactly `redis`, with any
 * registry, namespace, tag or digest (`redis`, `redis:7.2`, `docker.io/library/redis:7.2-alpine`,
 * `localhost:5000/cache/redis@sha256:…`). `redis-stack` or `myredis` are not. Pure.
 */
export function isRedisImage(image: string): boolean {
  const repository = imageRepository(image.trim());
  const last = repository.slice(repository.lastIndexOf('/') + 1);
  return last === 'redis';
}
