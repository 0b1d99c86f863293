/**
 * `node /app/main.js restore-fetch`: the restoring member's init container. Reads the plan the operator mounted
 * (none: the restore is done or this replication has none, nothing to do), lets only the members it names restore,
 * opens the S3 object (credentials from env) or the file in the read-only claim, and runs {@link fetchRestore}.
 * A failure is written as JSON to the termination message, so the operator can report it, and exits non-zero, so
 * redis-server never starts on unverified data.
 */
import { createReadStream } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { classifyS3Error } from '../backup/s3-errors.ts';
import { s3ClientFor } from '../backup/s3-upload.ts';
import { DATA_DIR } from '../redis/config-file.ts';
import { fetchRestore, RestoreError } from './restore-fetch.ts';
import {
  parseRestorePlan,
  RESTORE_ENV,
  RESTORE_FAILURE_REASONS,
  RESTORE_PLACEHOLDER_PRIMARY,
  RESTORE_PLAN_DIR,
  RESTORE_PLAN_FILE,
  RESTORE_REPLICAOF_FILE,
  RESTORE_SOURCE_DIR,
  RESTORE_START_DIR,
  terminationMessage,
} from './restore-plan.ts';
import type { RestorePlan } from './restore-plan.ts';

/** Where the kubelet reads a container's termination message (the Pod's default `terminationMessagePath`). */
const TERMINATION_LOG = '/dev/termination-log';

/** Paths of {@link runRestoreFetch}, overridable for tests. */
export interface RestoreCommandPaths {
  readonly planDir: string;
  readonly dataDir: string;
  readonly sourceDir: string;
  /** The Pod's start directory ({@link RESTORE_START_DIR}). */
  readonly startDir: string;
  readonly terminationLog: string;
}

const DEFAULT_PATHS: RestoreCommandPaths = { planDir: RESTORE_PLAN_DIR, dataDir: DATA_DIR, sourceDir: RESTORE_SOURCE_DIR, startDir: RESTORE_START_DIR, terminationLog: TERMINATION_LOG };

function opener(plan: RestorePlan, env: Readonly<Record<string, string | undefined>>, sourceDir: string): () => Promise<Readable> {
  if ('file' in plan) {
    const path = join(sourceDir, plan.file.path);
    return async () => {
      const stream = createReadStream(path);
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => {
          resolve();
        });
        stream.once('error', (err) => {
          reject(new RestoreError({ reason: RESTORE_FAILURE_REASONS.sourceUnavailable, message: `${plan.location}: ${err.message}` }, { cause: err }));
        });
      });
      return stream;
    };
  }
  const { s3 } = plan;
  return async () => {
    const accessKeyId = env[RESTORE_ENV.accessKeyId] ?? '';
    const secretAccessKey = env[RESTORE_ENV.secretAccessKey] ?? '';
    const client = s3ClientFor({ ...s3, credentials: { accessKeyId, secretAccessKey } });
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: s3.key }));
      const body = object.Body as Readable | undefined;
      if (body === undefined) throw new Error('the object has no body');
      body.once('close', () => {
        client.destroy();
      });
      return body;
    } catch (err) {
      client.destroy();
      const classified = classifyS3Error(err, 'GetObject', { endpoint: s3.endpoint ?? `AWS ${s3.region}`, bucket: s3.bucket });
      throw new RestoreError({ reason: RESTORE_FAILURE_REASONS.sourceUnavailable, message: `${plan.location}: ${classified.message}` }, { cause: err });
    }
  };
}

/**
 * Runs the agent; resolves with the process exit code (0: restored, already restored or nothing to do; 1: failed,
 * with the termination message written). The plan's primary and each of its replicas restore (in parallel, one agent
 * per Pod); a replica then leaves {@link RESTORE_REPLICAOF_FILE} so that redis-server first starts as a replica (see
 * {@link RESTORE_PLACEHOLDER_PRIMARY}). Without a plan (none yet, or the restore is done) or for a Pod the plan does not
 * name, nothing is restored and any start file of an earlier run is removed. Logs one line per outcome to stdout,
 * never a credential.
 */
export async function runRestoreFetch(env: Readonly<Record<string, string | undefined>>, paths: RestoreCommandPaths = DEFAULT_PATHS, log: (line: string) => void = console.log): Promise<number> {
  const startFile = join(paths.startDir, RESTORE_REPLICAOF_FILE);
  await rm(startFile, { force: true });
  const planText = await readFile(join(paths.planDir, RESTORE_PLAN_FILE), 'utf8').catch(() => undefined);
  if (planText === undefined) {
    log('restore-fetch: no restore plan mounted; nothing to do');
    return 0;
  }
  try {
    const plan = parseRestorePlan(planText);
    if (typeof plan === 'string') throw new RestoreError({ reason: RESTORE_FAILURE_REASONS.invalidPlan, message: plan });
    const pod = env[RESTORE_ENV.podName];
    const replica = pod !== undefined && pod !== plan.pod && (plan.replicas ?? []).includes(pod);
    if (pod !== plan.pod && !replica) {
      log(`restore-fetch: the plan does not name ${pod ?? 'this Pod'}; it will replicate from ${plan.pod}`);
      return 0;
    }
    const done = await fetchRestore({ dataDir: paths.dataDir, sha256: plan.sha256, location: plan.location, open: opener(plan, env, paths.sourceDir) });
    if (replica) await writeFile(startFile, `${RESTORE_PLACEHOLDER_PRIMARY}\n`);
    log(`restore-fetch: ${done.outcome === 'restored' ? 'restored' : 'already restored'} ${plan.location} (${done.sizeBytes} bytes, SHA-256 verified)${replica ? `; starts as a replica until ${plan.pod} is its primary` : ''}`);
    return 0;
  } catch (err) {
    const failure = err instanceof RestoreError ? err.failure : { reason: RESTORE_FAILURE_REASONS.sourceUnavailable, message: err instanceof Error ? err.message : String(err) };
    log(`restore-fetch: ${failure.reason}: ${failure.message}`);
    await writeFile(paths.terminationLog, terminationMessage(failure)).catch(() => undefined);
    return 1;
  }
}
