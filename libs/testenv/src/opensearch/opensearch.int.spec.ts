import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenSearchInfo } from '../env-file.ts';
import { resolvePaths } from '../paths.ts';
import { opensearchComponent } from './opensearch.ts';
import { type BasicCredentials, basicAuthorization, httpStatus } from './probe.ts';

// Reuses a node that is already up; starts one otherwise and leaves it running for the next suite.
describe('opensearch component (real node with the security plugin)', () => {
  let info: OpenSearchInfo;
  const suffix = randomBytes(4).toString('hex');
  const index = `int-orders-${suffix}`;
  const reader: BasicCredentials = { username: `int-reader-${suffix}`, password: `Int-${randomBytes(12).toString('hex')}!` };

  beforeAll(async () => {
    info = await opensearchComponent.up({ paths: resolvePaths(), progress: () => undefined });
  });

  async function asAdmin(method: string, path: string, body: unknown): Promise<number> {
    const response = await fetch(`${info.url}${path}`, {
      method,
      headers: { authorization: basicAuthorization(info.adminUser), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await response.body?.cancel();
    return response.status;
  }

  it('is healthy, refuses anonymous callers and serves the admin', async () => {
    expect(await opensearchComponent.healthy({ paths: resolvePaths(), progress: () => undefined })).toBe(true);
    expect(await httpStatus(info.url, '/')).toBe(401);
    expect(await httpStatus(info.url, '/', info.adminUser)).toBe(200);
  });

  it('enforces index permissions granted through the security REST API', async () => {
    expect(await asAdmin('PUT', `/${index}`, { settings: { number_of_replicas: 0 } })).toBe(200);
    expect(await asAdmin('PUT', `/_plugins/_security/api/internalusers/${reader.username}`, { password: reader.password })).toBe(201);
    expect(await httpStatus(info.url, `/${index}/_search`, reader)).toBe(403);

    const role = `int-read-${suffix}`;
    const permissions = { index_permissions: [{ index_patterns: [index], allowed_actions: ['read'] }] };
    expect(await asAdmin('PUT', `/_plugins/_security/api/roles/${role}`, permissions)).toBe(201);
    expect(await asAdmin('PUT', `/_plugins/_security/api/rolesmapping/${role}`, { users: [reader.username] })).toBe(201);
    expect(await httpStatus(info.url, `/${index}/_search`, reader)).toBe(200);
  });
});
