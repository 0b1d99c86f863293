import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The root of this checkout (the folder holding `package.json` and `nx.json`). */
export const REPO_ROOT: string = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** The operators that ship an image, each with `operators/<system>/Dockerfile`. */
export const IMAGE_SYSTEMS = ['kafka', 'opensearch', 'redis'] as const;

/** `operators/<system>/Dockerfile` in the checkout at `root`. Pure. */
export function dockerfilePath(system: (typeof IMAGE_SYSTEMS)[number], root: string = REPO_ROOT): string {
  return join(root, 'operators', system, 'Dockerfile');
}
