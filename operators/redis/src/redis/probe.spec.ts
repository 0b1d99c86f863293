import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberProbeCommand, memberProbes } from './probe.ts';

// The command runs under a real `sh`, with a stand-in `redis-cli` first on PATH that records its arguments and the
// REDISCLI_AUTH it was given, then prints what the test asks for: what the kubelet would see from each answer.
let dir = '';
const passwordFile = (): string => join(dir, 'replication-password');

async function probe(answer: string): Promise<{ code: number; argv: string; auth: string }> {
  await writeFile(join(dir, 'answer'), answer);
  const code = await new Promise<number>((resolve) => {
    execFile('sh', ['-c', memberProbeCommand('replication', passwordFile(), 6379)], { env: { PATH: `${dir}:/usr/bin:/bin` } }, (err) => {
      resolve(err === null ? 0 : typeof err.code === 'number' ? err.code : -1);
    });
  });
  return { code, argv: await readFile(join(dir, 'argv'), 'utf8'), auth: await readFile(join(dir, 'auth'), 'utf8') };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'probe-'));
  await writeFile(passwordFile(), 's3cret-pw');
  const stub = join(dir, 'redis-cli');
  await writeFile(stub, `#!/bin/sh\nprintf '%s ' "$@" > '${dir}/argv'\nprintf '%s' "$REDISCLI_AUTH" > '${dir}/auth'\ncat '${dir}/answer'\n`);
  await chmod(stub, 0o755);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('memberProbeCommand', () => {
  it('succeeds on PONG only, as the replication user, with the password in the environment and never an argument', async () => {
    const ok = await probe('PONG\n');
    expect(ok.code).toBe(0);
    expect(ok.argv).toBe('--user replication -p 6379 ping ');
    expect(ok.auth).toBe('s3cret-pw');
    expect(ok.argv).not.toContain('s3cret-pw');
  });

  it('fails while the member loads, and on every refusal the old probe took for an answer', async () => {
    for (const answer of ['LOADING Redis is loading the dataset in memory\n', 'NOAUTH Authentication required.\n', 'WRONGPASS invalid username-password pair or user is disabled.\n', "NOPERM this user has no permissions to run the 'ping' command\n", '', 'PONGPONG\n']) {
      expect((await probe(answer)).code, answer).not.toBe(0);
    }
  });
});

describe('memberProbes', () => {
  it('asks the same question every second until the member first answers, and never gives up on a long load', () => {
    const probes = memberProbes('replication', '/etc/redis-secret/replication-password');
    expect(probes.startup.exec).toEqual(probes.readiness.exec);
    expect(probes.startup).toMatchObject({ periodSeconds: 1, failureThreshold: 2_147_483_647 });
    expect(probes.readiness).toMatchObject({ periodSeconds: 5, failureThreshold: 2 });
  });
});
