import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { KafkaInfo } from '../env-file.ts';

/** What `.testenv/run/kafka/info.json` holds: the info `up` returns plus the KRaft cluster id. */
export interface KafkaState {
  readonly info: KafkaInfo;
  /** The id the storage was formatted with (22 characters of base64url, a Kafka `Uuid`). */
  readonly clusterId: string;
}

/** A random password of 32 base64url characters: no commas, quotes or brackets, so SCRAM and JAAS syntax can carry it. */
export function generatePassword(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * A random KRaft cluster id in the format `kafka-storage random-uuid` prints (16 bytes, base64url, unpadded). Like
 * Kafka's own `Uuid.randomUuid`, it never starts with `-`, which the storage tool's argument parser would take for an
 * option ("argument --cluster-id/-t: expected one argument").
 */
export function generateClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/**
 * The state of a cluster rebuilt from `previous`: the same info (addresses, super user and password, version) and a
 * new cluster id from `newId`, drawn again until it differs from the old one. Pure but for `newId`.
 */
export function rebuiltState(previous: KafkaState, newId: () => string = generateClusterId): KafkaState {
  for (;;) {
    const clusterId = newId();
    if (clusterId !== previous.clusterId) return { info: previous.info, clusterId };
  }
}

/** Reads the state file; `undefined` when it is absent or unreadable (the caller then starts afresh). */
export async function readKafkaState(file: string): Promise<KafkaState | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<KafkaState>;
    return parsed.info !== undefined && typeof parsed.clusterId === 'string' ? (parsed as KafkaState) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the state file atomically with mode 0600, since it holds the super user's password. */
export async function writeKafkaState(file: string, state: KafkaState): Promise<void> {
  await writeSecretFile(file, `${JSON.stringify(state, null, 2)}\n`);
}

/** Writes `text` to `file` atomically (temp file and rename) with mode 0600. */
export async function writeSecretFile(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode: 0o600 });
  await rename(tmp, file);
}
