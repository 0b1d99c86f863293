import { describe, expect, it } from 'vitest';
import { exitOf, IMAGE_DIGEST_ANNOTATION, podValues } from './operator-pod.ts';

describe('podValues', () => {
  it("passes args and env as the chart's extraArgs and extraEnv", () => {
    expect(podValues({ values: { replicaCount: 2 }, args: ['--log-level=debug'], env: { A: '1' } }, undefined)).toEqual({
      admissionPolicies: { enabled: false },
      replicaCount: 2,
      extraArgs: ['--log-level=debug'],
      extraEnv: [{ name: 'A', value: '1' }],
    });
  });

  it('on testenv never pulls, and rolls the Pods when the image under the same tag changes', () => {
    const values = podValues({ values: { image: { tag: 'x' }, podAnnotations: { a: 'b' } } }, 'sha256:abc');
    expect(values).toEqual({ admissionPolicies: { enabled: false }, image: { tag: 'x', pullPolicy: 'Never' }, podAnnotations: { a: 'b', [IMAGE_DIGEST_ANNOTATION]: 'sha256:abc' } });
  });

  it("installs the chart's admission policies only when the test asks for them", () => {
    expect(podValues({ values: { admissionPolicies: { enabled: true } } }, undefined)).toEqual({ admissionPolicies: { enabled: true } });
  });
});

describe('exitOf', () => {
  it('reads 128 + n as signal n, as the kubelet reports a killed container', () => {
    expect(exitOf(137)).toEqual({ code: null, signal: 'SIGKILL' });
    expect(exitOf(143)).toEqual({ code: null, signal: 'SIGTERM' });
    expect(exitOf(0)).toEqual({ code: 0, signal: null });
    expect(exitOf(1)).toEqual({ code: 1, signal: null });
  });
});
