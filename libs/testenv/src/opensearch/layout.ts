import { join } from 'node:path';
import type { TestenvPaths } from '../paths.ts';

/** Where the OpenSearch component keeps its files. Every path is absolute. */
export interface OpenSearchLayout {
  /** `.testenv/run/opensearch`. */
  readonly runDir: string;
  /** `path.home` of the node; holds `config/`. */
  readonly homeDir: string;
  /** `<home>/config`: `opensearch.yml`, `log4j2.properties`. */
  readonly configDir: string;
  /** `<home>/config/opensearch-security`: the security files loaded on first start. */
  readonly securityConfigDir: string;
  /** `path.data`; wiped by `down`. */
  readonly dataDir: string;
  /** `path.repo`: `fs` snapshot repositories live in folders under it; wiped by `down`. */
  readonly repoDir: string;
  /** CA, node certificate and keys. */
  readonly certsDir: string;
  /** The OpenSearchInfo of this environment (holds the admin password; mode 0600). */
  readonly infoFile: string;
  /** bcrypt hash of the admin password (mode 0600). */
  readonly adminHashFile: string;
  readonly pidFile: string;
  /** `.testenv/logs/opensearch.log`: the node's output. */
  readonly logFile: string;
  /** `.testenv/logs/opensearch-setup.log`: Maven, openssl and the bcrypt helper. */
  readonly setupLogFile: string;
  /** `<cacheDir>/opensearch/<version>`: jars and the class path, shared by clones. */
  readonly buildDir: string;
}

/** Resolves the layout for `paths` and an OpenSearch version. Pure. */
export function opensearchLayout(paths: TestenvPaths, version: string): OpenSearchLayout {
  const runDir = join(paths.runDir, 'opensearch');
  const homeDir = join(runDir, 'home');
  const configDir = join(homeDir, 'config');
  return {
    runDir,
    homeDir,
    configDir,
    securityConfigDir: join(configDir, 'opensearch-security'),
    dataDir: join(runDir, 'data'),
    repoDir: join(runDir, 'snapshots'),
    certsDir: join(runDir, 'certs'),
    infoFile: join(runDir, 'info.json'),
    adminHashFile: join(runDir, 'admin.bcrypt'),
    pidFile: join(runDir, 'opensearch.pid'),
    logFile: join(paths.logsDir, 'opensearch.log'),
    setupLogFile: join(paths.logsDir, 'opensearch-setup.log'),
    buildDir: join(paths.cacheDir, 'opensearch', version),
  };
}
