import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backendsUnderTest, selectBackends } from './backends.ts';

const KAFKA = { bootstrapServers: ['127.0.0.1:30092'], superUser: { username: 'admin', password: 'p', mechanism: 'SCRAM-SHA-512' as const }, version: '4.1.0' };

describe('selectBackends', () => {
  it('returns exactly the named backends', () => {
    expect(selectBackends({ kafka: KAFKA, redis: { url: 'redis://x', version: '7' } }, ['kafka'], 'here')).toEqual({ kafka: KAFKA });
  });

  it('names every missing backend and the source', () => {
    expect(() => selectBackends({ kafka: KAFKA }, ['kafka', 'opensearch', 'redis'], 'the file')).toThrow('the file describes no opensearch, redis');
  });
});

describe('backendsUnderTest with $E2E_BACKENDS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'backends-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the file instead of starting testenv', async () => {
    const file = join(dir, 'backends.json');
    writeFileSync(file, JSON.stringify({ kafka: KAFKA }));
    await expect(backendsUnderTest(['kafka'], { E2E_BACKENDS: file })).resolves.toEqual({ kafka: KAFKA });
    await expect(backendsUnderTest(['opensearch'], { E2E_BACKENDS: file })).rejects.toThrow(`$E2E_BACKENDS (${file}) describes no opensearch`);
  });
});
