import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureTestEnv } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationFailure, verificationFailure } from './repository-errors.ts';
import { compareRepository, flattenSettings, repositoryBody } from './repository-plan.ts';
import type { OpenSearchFixture } from './test-support.int.ts';
import { openSearchFixture } from './test-support.int.ts';

/** Resolves with what `promise` rejected with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
}

describe('snapshot repositories against the real node (path.repo is testenv snapshotDir)', () => {
  let fx: OpenSearchFixture;
  let root: string;
  const names: string[] = [];
  const name = (what: string): string => {
    const full = `int-${fx.suffix}-${what}`;
    names.push(full);
    return full;
  };

  beforeAll(async () => {
    fx = await openSearchFixture();
    root = (await ensureTestEnv(['opensearch'])).opensearch.snapshotDir;
  });

  afterAll(async () => {
    for (const repository of names) await fx.api.deleteRepository(repository);
    rmSync(join(root, `int-${fx.suffix}`), { recursive: true, force: true });
    await fx.api.close();
  });

  it('reports settings flat and as strings, nested ones and lists included, so the spec compares equal', async () => {
    const repository = name('flat');
    const body = repositoryBody({
      type: 'fs',
      settings: { location: join(root, `int-${fx.suffix}`, 'flat'), compress: true, chunk_size: '10mb', max: { restore_bytes_per_sec: '20mb' }, tags: ['a', 'b'] },
    });
    await fx.api.putRepository(repository, body);

    const observed = await fx.api.getRepository(repository);

    expect(observed).toEqual({ type: 'fs', settings: flattenSettings(body.settings) });
    expect(observed?.settings).toMatchObject({ compress: 'true', 'max.restore_bytes_per_sec': '20mb', tags: 'a,b' });
    expect(compareRepository(body, observed ?? { type: '', settings: {} })).toEqual({ upToDate: true, diff: [] });
    expect(await fx.api.verifyRepository(repository)).toEqual([expect.any(String)]);
    expect(await fx.api.getRepository(name('missing'))).toBeUndefined();
  });

  it("refuses a location outside path.repo (RepositoryRefused with OpenSearch's reason), and fails the verification of a location that is a file", async () => {
    const outside = registrationFailure(await rejection(fx.api.putRepository(name('outside'), { type: 'fs', settings: { location: `/tmp/int-${fx.suffix}-outside` } })));
    expect(outside).toMatchObject({ reason: 'RepositoryRefused' });
    expect((outside as Error).message).toContain(`location [/tmp/int-${fx.suffix}-outside] doesn't match any of the locations specified by path.repo`);

    const file = join(root, `int-${fx.suffix}-file`);
    writeFileSync(file, 'not a folder\n');
    try {
      const repository = name('file');
      await fx.api.putRepository(repository, { type: 'fs', settings: { location: file } });
      const failed = verificationFailure(await rejection(fx.api.verifyRepository(repository)));
      expect(failed).toMatchObject({ reason: 'RepositoryVerificationFailed' });
      expect((failed as Error).message).toContain('is not accessible');
    } finally {
      rmSync(file, { force: true });
    }
  });
});
