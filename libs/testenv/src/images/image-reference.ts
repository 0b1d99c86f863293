/** The repository under which every image built here from Debian or local binaries is named. */
export const LOCAL_REPOSITORY = 'localhost/domain-operators';

const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DOMAIN = /^(?:localhost|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|[A-Za-z0-9-]+)(?::\d+)?$/;

/**
 * `repository:tag` after checking both against the Docker reference grammar (which the kubelet and containerd
 * apply): the repository must start with a registry host (so the kubelet does not prefix `docker.io/`), the
 * tag is `[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}`. Throws with the reason otherwise. Pure.
 */
export function imageReference(repository: string, tag: string): string {
  const [domain, ...path] = repository.split('/');
  if (domain === undefined || path.length === 0 || !(domain.includes('.') || domain.includes(':') || domain === 'localhost') || !DOMAIN.test(domain)) {
    throw new Error(`image reference: "${repository}" must start with a registry host such as localhost/ or ghcr.io/`);
  }
  for (const part of path) {
    if (!PATH_COMPONENT.test(part)) throw new Error(`image reference: "${part}" in "${repository}" is not a valid path component`);
  }
  if (!TAG.test(tag)) throw new Error(`image reference: "${tag}" is not a valid tag`);
  return `${repository}:${tag}`;
}

/** The tag of a `repository:tag` reference (after the last `:` that follows the last `/`). Pure. */
export function tagOf(reference: string): string {
  const lastSlash = reference.lastIndexOf('/');
  const colon = reference.indexOf(':', lastSlash + 1);
  if (colon === -1) throw new Error(`image reference: "${reference}" has no tag`);
  return reference.slice(colon + 1);
}

/**
 * A Debian version as an image tag: the epoch dropped and every character a tag cannot hold (`~`, `+`, `:`)
 * turned into `_`, e.g. `5:7.0.15-1~deb12u10` → `7.0.15-1_deb12u10`. Pure.
 */
export function debianVersionTag(version: string): string {
  const tag = version.replace(/^\d+:/, '').replace(/[^A-Za-z0-9_.-]/g, '_');
  if (!TAG.test(tag)) throw new Error(`image reference: Debian version "${version}" gives no valid tag`);
  return tag;
}
