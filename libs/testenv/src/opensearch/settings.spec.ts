import { describe, expect, it } from 'vitest';
import { renderNodeSettings } from './settings.ts';

describe('renderNodeSettings', () => {
  const yml = renderNodeSettings({
    dataDir: '/d',
    repoDir: '/r',
    httpPort: 19200,
    httpHost: '10.244.0.1',
    transportPort: 19300,
    nodeCert: '/c/node.pem',
    nodeKey: '/c/node-key.pem',
    caCert: '/c/ca.pem',
  });

  it('allows fs snapshot repositories under the one repo folder', () => {
    expect(yml).toContain('path.repo: ["/r"]\n');
  });

  it('runs one node with transport TLS on loopback and plain HTTP on the node address', () => {
    expect(yml).toContain('discovery.type: single-node\n');
    expect(yml).toContain('network.host: 127.0.0.1\n');
    expect(yml).toContain('http.host: 10.244.0.1\n');
    expect(yml).toContain('plugins.security.ssl.transport.pemkey_filepath: "/c/node-key.pem"\n');
    expect(yml).toContain('plugins.security.ssl.http.enabled: false\n');
  });

  it('creates the security index from files and opens the security REST API to all_access', () => {
    expect(yml).toContain('plugins.security.allow_default_init_securityindex: true\n');
    expect(yml).toContain('plugins.security.restapi.roles_enabled: ["all_access"]\n');
  });
});
