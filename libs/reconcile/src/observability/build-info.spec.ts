import { readFileSync } from 'node:fs';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { buildInfo, buildInfoMetricName, registerBuildInfo } from './build-info.ts';

describe('buildInfo', () => {
  it("is the root package.json's version and the running Node.js", () => {
    const rootPackage = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(buildInfo()).toEqual({ version: rootPackage.version, nodeVersion: process.version });
  });
});

describe('registerBuildInfo', () => {
  it('exposes <operator>_build_info{version,node_version} 1', async () => {
    const registry = new Registry();
    registerBuildInfo(registry, 'kafka-operator', { version: '1.2.3', nodeVersion: 'v24.9.0' });
    expect(buildInfoMetricName('kafka-operator')).toBe('kafka_operator_build_info');
    expect(await registry.getSingleMetricAsString('kafka_operator_build_info')).toBe(
      [
        '# HELP kafka_operator_build_info The kafka-operator build: its release version and Node.js version; always 1.',
        '# TYPE kafka_operator_build_info gauge',
        'kafka_operator_build_info{version="1.2.3",node_version="v24.9.0"} 1',
      ].join('\n'),
    );
  });
});
