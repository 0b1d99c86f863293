import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { clusterEndpoint, renderTokenKubeconfig } from './kubeconfig.ts';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const input = { server: 'https://127.0.0.1:6443', certificateAuthority: CA, token: 'tok.en.value', namespace: 'ops', name: 'system:serviceaccount:ops:op' };

describe('renderTokenKubeconfig', () => {
  it('yields a kubeconfig whose only credential is the token, in the release namespace', () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(renderTokenKubeconfig(input));
    const user = kubeConfig.getCurrentUser();
    expect(user).toMatchObject({ name: input.name, token: 'tok.en.value' });
    expect(user?.certData).toBeUndefined();
    expect(user?.keyData).toBeUndefined();
    expect(user?.exec).toBeUndefined();
    expect(kubeConfig.getCurrentCluster()).toMatchObject({ server: input.server, caData: Buffer.from(CA).toString('base64') });
    expect(kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace).toBe('ops');
  });

  it('round-trips the server and CA through clusterEndpoint', () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(renderTokenKubeconfig(input));
    expect(clusterEndpoint(kubeConfig)).toEqual({ server: input.server, certificateAuthority: CA });
  });
});

describe('clusterEndpoint', () => {
  it('refuses a cluster without a CA', () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://x', skipTLSVerify: false }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx',
    });
    expect(() => clusterEndpoint(kubeConfig)).toThrow('has no CA');
  });
});
