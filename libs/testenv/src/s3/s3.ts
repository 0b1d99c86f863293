import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Component, ComponentContext } from '../component.ts';
import type { S3Info } from '../env-file.ts';
import { NODE_IP } from '../node/addresses.ts';
import { runningPid, startDaemon, stopDaemon, waitUntil } from '../process.ts';
import { ensureS3Build, s3BinaryPathFor } from './build.ts';

/** Port of the S3 API on the node's bridge address (Pods and host processes reach it there). */
export const S3_PORT = 19900;
/** The region the gateway reports and signs for. */
export const S3_REGION = 'us-east-1';
const STOP_GRACE_MS = 5_000;

/** Where the component keeps its files. */
export interface S3Layout {
  /** `.testenv/run/s3`. */
  readonly runDir: string;
  /** The folder the posix backend serves: each bucket is a folder under it. Wiped by `down`. */
  readonly dataDir: string;
  /** The component's info with the root credentials (mode 0600). */
  readonly infoFile: string;
  readonly pidFile: string;
  /** `.testenv/logs/s3.log`. */
  readonly logFile: string;
}

/** The layout under `ctx.paths`. Pure. */
export function s3Layout(paths: ComponentContext['paths']): S3Layout {
  const runDir = join(paths.runDir, 's3');
  return { runDir, dataDir: join(runDir, 'data'), infoFile: join(runDir, 'info.json'), pidFile: join(runDir, 'versitygw.pid'), logFile: join(paths.logsDir, 's3.log') };
}

/**
 * The command line of the gateway: the S3 API on `endpoint`'s address, the posix backend on `dataDir`, request
 * logging off. The root credentials are not on it: they go through the environment ({@link s3Environment}), so
 * `ps` never shows them. Pure.
 */
export function s3Arguments(layout: Pick<S3Layout, 'dataDir'>): string[] {
  return ['--port', `${NODE_IP}:${S3_PORT}`, '--region', S3_REGION, '--quiet', 'posix', layout.dataDir];
}

/** The environment that hands the root credentials to the gateway. Pure. */
export function s3Environment(info: Pick<S3Info, 'accessKeyId' | 'secretAccessKey'>): Record<string, string> {
  return { ROOT_ACCESS_KEY_ID: info.accessKeyId, ROOT_SECRET_ACCESS_KEY: info.secretAccessKey };
}

async function readInfo(file: string): Promise<S3Info | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as S3Info;
  } catch {
    return undefined;
  }
}

/**
 * Whether the gateway answers S3 at `endpoint`: an unsigned `GET /` is refused with S3's `AccessDenied` XML (403),
 * which only a serving S3 API returns. Never throws.
 */
export async function s3Serving(endpoint: string): Promise<boolean> {
  try {
    const response = await fetch(`${endpoint}/`, { signal: AbortSignal.timeout(3_000) });
    const body = await response.text();
    return response.status === 403 && body.includes('AccessDenied');
  } catch {
    return false;
  }
}

/**
 * Object storage for tests: the Versity S3 Gateway (`versitygw`, Apache-2.0, built from the Go module proxy)
 * serving a local folder through the S3 API on `http://10.244.0.1:19900`, path-style, region `us-east-1`, with
 * random root credentials kept in `.testenv/run/s3/info.json` (mode 0600) and in env.json. `up` is idempotent;
 * `down` stops it and wipes the folder (every bucket and object).
 */
export const s3Component: Component<S3Info> = {
  name: 's3',

  async up(ctx) {
    const layout = s3Layout(ctx.paths);
    const build = await ensureS3Build(ctx);
    const stored = await readInfo(layout.infoFile);
    const pid = await runningPid(layout.pidFile);
    if (pid !== undefined && stored?.version === build.version && (await s3Serving(stored.endpoint))) {
      ctx.progress(`already running (pid ${pid})`);
      return stored;
    }
    await stopDaemon(layout.pidFile, STOP_GRACE_MS);
    const info: S3Info = {
      endpoint: `http://${NODE_IP}:${S3_PORT}`,
      region: S3_REGION,
      accessKeyId: stored?.accessKeyId ?? `testenv${randomBytes(6).toString('hex')}`,
      secretAccessKey: stored?.secretAccessKey ?? randomBytes(24).toString('base64url'),
      version: build.version,
      dataDir: layout.dataDir,
    };
    await mkdir(layout.dataDir, { recursive: true });
    await writeFile(layout.infoFile, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
    await chmod(layout.infoFile, 0o600);
    ctx.progress(`starting versitygw ${build.version} (log: ${layout.logFile})`);
    const started = await startDaemon({ name: 's3', command: build.binary, args: s3Arguments(layout), env: s3Environment(info), cwd: layout.runDir, logFile: layout.logFile, pidFile: layout.pidFile });
    await waitUntil(() => s3Serving(info.endpoint), { what: `S3 API on ${info.endpoint}`, timeoutMs: 30_000, logFile: layout.logFile, pid: started });
    ctx.progress(`serving S3 on ${info.endpoint}`);
    return info;
  },

  async down(ctx) {
    const layout = s3Layout(ctx.paths);
    await stopDaemon(layout.pidFile, STOP_GRACE_MS);
    await rm(layout.runDir, { recursive: true, force: true });
  },

  async healthy(ctx) {
    const layout = s3Layout(ctx.paths);
    const info = await readInfo(layout.infoFile);
    if (info === undefined || (await runningPid(layout.pidFile)) === undefined) return false;
    return s3Serving(info.endpoint);
  },
};

/**
 * What the component left on the host after `down`: every process running the cached gateway binary (found by
 * `/proc/<pid>/exe`, so a lost pid file cannot hide one) and its run folder. One line each; empty when clean.
 */
export async function s3Leftovers(ctx: ComponentContext): Promise<string[]> {
  const binary = await s3BinaryPathFor(ctx.paths);
  const found: string[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    const exe = await readlink(`/proc/${entry}/exe`).catch(() => '');
    if (exe.replace(/ \(deleted\)$/, '') === binary) found.push(`s3: versitygw still running (pid ${entry})`);
  }
  const layout = s3Layout(ctx.paths);
  if (await readdir(layout.runDir).then(() => true, () => false)) found.push(`s3: ${layout.runDir} still exists`);
  return found;
}
