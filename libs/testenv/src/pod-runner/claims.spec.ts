import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { claimsInUse, claimsToRelease, staleClaimDirs } from './claims.ts';

const pods = [
  { metadata: { name: 'r-0', namespace: 'a' }, spec: { containers: [], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-r-0' } }] } },
  { metadata: { name: 'e', namespace: 'a' }, spec: { containers: [], volumes: [{ name: 'scratch', ephemeral: {} }] } },
  { metadata: { name: 'done', namespace: 'a' }, spec: { containers: [], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'old' } }] }, status: { phase: 'Succeeded' } },
];

function pvc(name: string, deleting: boolean, finalizers = ['kubernetes.io/pvc-protection']): V1PersistentVolumeClaim {
  return { metadata: { name, namespace: 'a', finalizers, ...(deleting ? { deletionTimestamp: new Date() } : {}) } };
}

describe('claims', () => {
  it('finds claims used by live pods', () => {
    expect([...claimsInUse(pods)].sort()).toEqual(['a/data-r-0', 'a/e-scratch']);
  });

  it('releases deleted claims no live pod uses', () => {
    const inUse = claimsInUse(pods);
    const released = claimsToRelease([pvc('data-r-0', true), pvc('old', true), pvc('other', false), pvc('x', true, [])], inUse);
    expect(released.map((p) => p.metadata?.name)).toEqual(['old']);
  });

  it('finds directories of claims that are gone', () => {
    expect(staleClaimDirs(['a/data-r-0', 'a/gone', 'a/kept'], [pvc('kept', false)], claimsInUse(pods))).toEqual(['a/gone']);
  });
});
