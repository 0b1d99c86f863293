import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readNodeAddonVersions } from './addon-versions.ts';

describe('readNodeAddonVersions', () => {
  it('reads the versions the node Go modules pin and hashes our own programs', async () => {
    const versions = await readNodeAddonVersions(fileURLToPath(new URL('../../go/node', import.meta.url)));
    expect(versions.containerd).toMatch(/^v2\.\d+\.\d+$/);
    expect(versions.coredns).toMatch(/^v1\.\d+\.\d+$/);
    expect(versions.localPathProvisioner).toMatch(/^v0\.0\.\d+$/);
    expect(versions.corednsBuild).toMatch(/^[0-9a-f]{16}$/);
    expect(versions.pause).toMatch(/^[0-9a-f]{16}$/);
    expect(versions.pause).not.toBe(versions.corednsBuild);
  });
});
