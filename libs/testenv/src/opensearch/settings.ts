import { yamlString } from './security-config.ts';

/** The OpenSearch version testenv runs; the pom's `opensearch.version` must match. */
export const OPENSEARCH_VERSION = '2.19.4';

/** Loopback HTTP port of the node. Fixed so tests and tools can rely on it. */
export const OPENSEARCH_HTTP_PORT = 19200;
/** Loopback transport (TLS) port of the node. */
export const OPENSEARCH_TRANSPORT_PORT = 19300;

/** Name of the internal user mapped to `all_access`. */
export const OPENSEARCH_ADMIN_USER = 'admin';

/** The security plugin's class, loaded from the class path in addition to the launcher's core plugins. */
export const SECURITY_PLUGIN_CLASS = 'org.opensearch.security.OpenSearchSecurityPlugin';

/** Heap for the node: small, the machine is shared. */
export const OPENSEARCH_JVM_OPTIONS: readonly string[] = ['-Xms512m', '-Xmx1g', '-Dlog4j2.formatMsgNoLookups=true'];

/** Inputs of `opensearch.yml`. */
export interface NodeSettingsInput {
  readonly dataDir: string;
  /** `path.repo`: the one directory under which `fs` snapshot repositories may live. */
  readonly repoDir: string;
  readonly httpPort: number;
  /** The address HTTP binds to and publishes (the node's bridge address). */
  readonly httpHost: string;
  readonly transportPort: number;
  /** PEM files for transport TLS: node certificate, its PKCS#8 key, the CA. */
  readonly nodeCert: string;
  readonly nodeKey: string;
  readonly caCert: string;
}

/**
 * `opensearch.yml` for one single-node cluster (transport on 127.0.0.1, HTTP on `httpHost`) with the security plugin: transport TLS (mandatory
 * for the plugin), plain HTTP with basic authentication, the security index created from the files on first
 * start, the security REST API open to `all_access`, audit logging off, `fs` snapshot repositories under `repoDir`. Pure.
 */
export function renderNodeSettings(input: NodeSettingsInput): string {
  const settings: readonly (readonly [string, string])[] = [
    ['cluster.name', yamlString('testenv')],
    ['node.name', yamlString('testenv')],
    ['path.data', yamlString(input.dataDir)],
    ['path.repo', `[${yamlString(input.repoDir)}]`],
    ['discovery.type', 'single-node'],
    // Transport stays on loopback; HTTP is on the node's bridge address, where Pods and host processes both reach it.
    ['network.host', '127.0.0.1'],
    ['http.host', input.httpHost],
    ['http.port', String(input.httpPort)],
    ['transport.port', String(input.transportPort)],
    ['cluster.routing.allocation.disk.threshold_enabled', 'false'],
    ['plugins.security.ssl.transport.pemcert_filepath', yamlString(input.nodeCert)],
    ['plugins.security.ssl.transport.pemkey_filepath', yamlString(input.nodeKey)],
    ['plugins.security.ssl.transport.pemtrustedcas_filepath', yamlString(input.caCert)],
    ['plugins.security.ssl.transport.enforce_hostname_verification', 'false'],
    ['plugins.security.ssl.http.enabled', 'false'],
    ['plugins.security.allow_default_init_securityindex', 'true'],
    ['plugins.security.restapi.roles_enabled', '["all_access"]'],
    ['plugins.security.audit.type', 'noop'],
  ];
  return `${settings.map(([key, value]) => `${key}: ${value}`).join('\n')}\n`;
}

/** `log4j2.properties`: everything at INFO to stdout, which the component appends to its log file. Pure. */
export function renderLog4jConfig(): string {
  return [
    'status = error',
    'appender.console.type = Console',
    'appender.console.name = console',
    'appender.console.layout.type = PatternLayout',
    // No %marker: OpenSearch would then append its %node_name converter, which is not registered here.
    'appender.console.layout.pattern = [%d{ISO8601}][%-5p][%-25c{1.}] %m%n',
    'rootLogger.level = info',
    'rootLogger.appenderRef.console.ref = console',
    '',
  ].join('\n');
}
