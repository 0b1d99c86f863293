import { NODE_IP } from '../node/addresses.ts';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Component, ComponentContext } from '../component.ts';
import type { OpenSearchInfo } from '../env-file.ts';
import { runningPid, startDaemon, stopDaemon, waitUntil } from '../process.ts';
import { ensureOpenSearchBuild, type OpenSearchBuild } from './build.ts';
import { ensureNodeCertificates } from './certs.ts';
import { readInfo, writeInfo } from './info-file.ts';
import { opensearchLayout, type OpenSearchLayout } from './layout.ts';
import { bcryptHash, randomPassword } from './password.ts';
import { serving } from './probe.ts';
import { renderSecurityConfig } from './security-config.ts';
import {
  OPENSEARCH_ADMIN_USER,
  OPENSEARCH_HTTP_PORT,
  OPENSEARCH_JVM_OPTIONS,
  OPENSEARCH_TRANSPORT_PORT,
  OPENSEARCH_VERSION,
  SECURITY_PLUGIN_CLASS,
  renderLog4jConfig,
  renderNodeSettings,
} from './settings.ts';

const START_TIMEOUT_MS = 300_000;
const STOP_GRACE_MS = 30_000;

/**
 * A single OpenSearch node with the security plugin, run from Maven Central jars by the testenv launcher on
 * `http://10.244.0.1:19200` on the node's bridge address, for Pods and host processes alike (basic authentication;
 * transport TLS on 127.0.0.1:19300).
 *
 * `up` is idempotent: a running node is only waited for. On a first `up` it builds (cached), makes the CA and
 * node certificate, picks a random admin password (kept in `.testenv/run/opensearch/info.json`, mode 0600,
 * for as long as that file lives) and starts the node, resolving once security is UP, the admin gets 200 and
 * an anonymous caller 401. `down` stops the node and wipes its data directory, so the next `up` starts from
 * the rendered security files again; it wipes the snapshot folder (`path.repo`) too. Index management (ISM) is
 * not loaded: `ism` is always false.
 */
export const opensearchComponent: Component<OpenSearchInfo> = {
  name: 'opensearch',
  up,
  down,
  healthy,
};

async function up(ctx: ComponentContext): Promise<OpenSearchInfo> {
  const layout = opensearchLayout(ctx.paths, OPENSEARCH_VERSION);
  const stored = await readInfo(layout.infoFile);
  const pid = await runningPid(layout.pidFile);
  // Info from before `path.repo` was set describes a node without snapshot repositories: restart it (data kept).
  if (pid !== undefined && stored?.snapshotDir !== undefined) {
    ctx.progress(`already running (pid ${pid}); checking that it serves`);
    await waitUntil(() => serving(stored.url, stored.adminUser), waitOptions(layout, pid));
    return stored;
  }
  // A node without its info (or info without a node) is in an unknown state: start over.
  await stopDaemon(layout.pidFile, STOP_GRACE_MS);

  const build = await ensureOpenSearchBuild(ctx, layout);
  if (stored === undefined) {
    // A new password needs a new security index, which is only created on an empty data directory.
    await rm(layout.dataDir, { recursive: true, force: true });
    await rm(layout.adminHashFile, { force: true });
  }
  const info: OpenSearchInfo = {
    url: `http://${NODE_IP}:${OPENSEARCH_HTTP_PORT}`,
    adminUser: { username: OPENSEARCH_ADMIN_USER, password: stored?.adminUser.password ?? randomPassword() },
    version: OPENSEARCH_VERSION,
    ism: false,
    snapshotDir: layout.repoDir,
  };
  await writeInfo(layout.infoFile, info);
  await writeNodeConfig(ctx, layout, build, info);

  ctx.progress(`starting OpenSearch ${OPENSEARCH_VERSION} with the security plugin (log: ${layout.logFile})`);
  const started = await startDaemon({
    name: 'opensearch',
    command: 'java',
    args: [
      ...OPENSEARCH_JVM_OPTIONS,
      `-Djava.io.tmpdir=${join(layout.runDir, 'tmp')}`,
      '-cp',
      build.classpath,
      'io.domainoperators.testenv.OpenSearchLauncher',
      layout.homeDir,
      SECURITY_PLUGIN_CLASS,
    ],
    cwd: layout.runDir,
    logFile: layout.logFile,
    pidFile: layout.pidFile,
  });
  await waitUntil(() => serving(info.url, info.adminUser), waitOptions(layout, started));
  ctx.progress(`serving on ${info.url}`);
  return info;
}

async function down(ctx: ComponentContext): Promise<void> {
  const layout = opensearchLayout(ctx.paths, OPENSEARCH_VERSION);
  await stopDaemon(layout.pidFile, STOP_GRACE_MS);
  await rm(layout.dataDir, { recursive: true, force: true });
  await rm(layout.repoDir, { recursive: true, force: true });
}

async function healthy(ctx: ComponentContext): Promise<boolean> {
  const layout = opensearchLayout(ctx.paths, OPENSEARCH_VERSION);
  const info = await readInfo(layout.infoFile);
  if (info === undefined || (await runningPid(layout.pidFile)) === undefined) return false;
  try {
    return await serving(info.url, info.adminUser);
  } catch {
    return false;
  }
}

/** Renders `opensearch.yml`, `log4j2.properties` and the security files into the node's home. */
async function writeNodeConfig(
  ctx: ComponentContext,
  layout: OpenSearchLayout,
  build: OpenSearchBuild,
  info: OpenSearchInfo,
): Promise<void> {
  if (!existsSync(layout.certsDir)) ctx.progress('making the CA and node certificate');
  const certs = await ensureNodeCertificates(layout.certsDir, layout.setupLogFile);
  const hash = existsSync(layout.adminHashFile)
    ? (await readFile(layout.adminHashFile, 'utf8')).trim()
    : await bcryptHash(build.classpath, info.adminUser.password, layout.adminHashFile, layout.setupLogFile);

  // The security plugin warns unless its configuration is private (0700 folders, 0600 files).
  await mkdir(layout.securityConfigDir, { recursive: true, mode: 0o700 });
  await chmod(layout.configDir, 0o700);
  await chmod(layout.securityConfigDir, 0o700);
  await mkdir(join(layout.runDir, 'tmp'), { recursive: true });
  await mkdir(layout.repoDir, { recursive: true });
  const nodeSettings = renderNodeSettings({
    dataDir: layout.dataDir,
    repoDir: layout.repoDir,
    httpPort: OPENSEARCH_HTTP_PORT,
    httpHost: NODE_IP,
    transportPort: OPENSEARCH_TRANSPORT_PORT,
    ...certs,
  });
  await writePrivate(join(layout.configDir, 'opensearch.yml'), nodeSettings);
  await writePrivate(join(layout.configDir, 'log4j2.properties'), renderLog4jConfig());
  const security = renderSecurityConfig({ adminUsername: info.adminUser.username, adminPasswordHash: hash });
  for (const [file, text] of Object.entries(security)) {
    await writePrivate(join(layout.securityConfigDir, file), text);
  }
}

async function writePrivate(file: string, text: string): Promise<void> {
  await writeFile(file, text, { mode: 0o600 });
  await chmod(file, 0o600);
}

function waitOptions(layout: OpenSearchLayout, pid: number): Parameters<typeof waitUntil>[1] {
  return {
    what: 'opensearch: security UP, admin 200 and anonymous 401 on GET /',
    timeoutMs: START_TIMEOUT_MS,
    intervalMs: 1_000,
    logFile: layout.logFile,
    pid,
  };
}
