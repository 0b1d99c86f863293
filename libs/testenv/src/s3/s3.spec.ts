import { describe, expect, it } from 'vitest';
import { s3BinaryPath, versitygwLdflags } from './build.ts';
import { s3Arguments, s3Environment, s3Layout } from './s3.ts';

describe('s3 component', () => {
  const layout = s3Layout({ runDir: '/r/run', logsDir: '/r/logs' } as Parameters<typeof s3Layout>[0]);

  it('keeps its files under run/s3, its log with the others', () => {
    expect(layout).toEqual({ runDir: '/r/run/s3', dataDir: '/r/run/s3/data', infoFile: '/r/run/s3/info.json', pidFile: '/r/run/s3/versitygw.pid', logFile: '/r/logs/s3.log' });
  });

  it('serves the posix backend on the node address, and never puts the credentials on the command line', () => {
    const info = { accessKeyId: 'testenvkey', secretAccessKey: 'very-secret' };
    const args = s3Arguments(layout);
    expect(args).toEqual(['--port', '10.244.0.1:19900', '--region', 'us-east-1', '--quiet', 'posix', '/r/run/s3/data']);
    expect(args.join(' ')).not.toContain(info.secretAccessKey);
    expect(s3Environment(info)).toEqual({ ROOT_ACCESS_KEY_ID: 'testenvkey', ROOT_SECRET_ACCESS_KEY: 'very-secret' });
  });

  it('caches the gateway by version and stamps the version into it', () => {
    expect(s3BinaryPath('/cache', 'v1.8.0')).toBe('/cache/s3/versitygw/v1.8.0/versitygw');
    expect(versitygwLdflags('v1.8.0')).toContain('-X=main.Version=v1.8.0');
  });
});
