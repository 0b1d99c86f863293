import type { V1Namespace } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { StoreWriter } from '../cache/store.ts';
import { isTerminalError } from '../core/errors.ts';
import { isDependencyError } from './dependency-error.ts';
import { NamespaceAdmission } from './namespace-admission.ts';

function admission(namespaces: V1Namespace[]): NamespaceAdmission {
  const store = new StoreWriter<V1Namespace>();
  store.replace(namespaces);
  return new NamespaceAdmission({ namespaces: { store } }, { kind: 'ThingConnection' });
}

function thrown(f: () => void): unknown {
  try {
    f();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('NamespaceAdmission', () => {
  const selector = { matchLabels: { things: 'yes' } };
  const a = admission([{ metadata: { name: 'team-a', labels: { things: 'yes' } } }, { metadata: { name: 'team-b' } }]);

  it('admits a selected namespace, and every namespace without a selector (no cache read needed)', () => {
    expect(() => { a.admit('main', selector, 'team-a'); }).not.toThrow();
    expect(() => { a.admit('main', undefined, 'not-cached'); }).not.toThrow();
  });

  it('refuses a namespace the selector does not select with TenancyViolation, terminal', () => {
    const error = thrown(() => { a.admit('main', selector, 'team-b'); });
    expect(isTerminalError(error) && error.reason).toBe('TenancyViolation');
    expect(error).toMatchObject({ message: 'namespace "team-b" is not selected by ThingConnection "main" (tenancy.namespaceSelector)' });
  });

  it('retries (NamespaceNotFound) a namespace not cached yet when a selector must be checked', () => {
    expect(isDependencyError(thrown(() => { a.admit('main', selector, 'new'); }), 'NamespaceNotFound')).toBe(true);
  });

  it('lists the admitted namespaces', () => {
    expect(a.admitted(selector)).toEqual(['team-a']);
    expect(a.admitted(undefined).sort()).toEqual(['team-a', 'team-b']);
  });
});
