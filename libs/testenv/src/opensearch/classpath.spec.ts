import { describe, expect, it } from 'vitest';
import { artifactName, mergeClasspath } from './classpath.ts';

describe('artifactName', () => {
  it.each([
    ['/x/netty-codec-http-4.1.125.Final.jar', 'netty-codec-http'],
    ['zstd-jni-1.5.5-5.jar', 'zstd-jni'],
    ['guava-33.4.0-jre.jar', 'guava'],
    ['scala-java8-compat_3-1.0.2.jar', 'scala-java8-compat_3'],
    ['opensearch-launcher.jar', 'opensearch-launcher'],
    ['transport-netty4-client-2.19.4.jar', 'transport-netty4-client'],
    ['bcprov-jdk18on-1.82.jar', 'bcprov-jdk18on'],
  ])('%s → %s', (jar, name) => {
    expect(artifactName(jar)).toBe(name);
  });
});

describe('mergeClasspath', () => {
  it('keeps the core jar of an artifact both ship and adds what only the plugin has', () => {
    const core = ['/lib/netty-common-4.1.125.Final.jar', '/lib/commons-codec-1.18.0.jar'];
    const plugin = ['/p/netty-common-4.1.125.Final.jar', '/p/commons-codec-1.17.2.jar', '/p/guava-33.4.0-jre.jar'];
    expect(mergeClasspath(core, plugin)).toEqual([...core, '/p/guava-33.4.0-jre.jar']);
  });
});
