import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The root of this checkout (the folder holding `package.json` and `nx.json`). */
export const REPO_ROOT: string = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** The operators that ship an image, each built from `operators/Dockerfile` with `--build-arg SYSTEM=<system>`. */
export const IMAGE_SYSTEMS = ['kafka', 'opensearch', 'redis'] as const;

/** `operators/Dockerfile`, the one Dockerfile of every operator image, in the checkout at `root`. Pure. */
export function dockerfilePath(root: string = REPO_ROOT): string {
  return join(root, 'operators', 'Dockerfile');
}
