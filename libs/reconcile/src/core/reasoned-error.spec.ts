import { describe, expect, it } from 'vitest';
import { KubeApiError, TerminalError } from './errors.ts';
import { errorReason, ReasonedError } from './reasoned-error.ts';
import { Reasons } from './reasons.ts';

class SystemError extends ReasonedError<'SystemUnavailable' | typeof Reasons.notAuthorized> {
  override readonly name = 'SystemError';
}

describe('ReasonedError', () => {
  it('carries its reason, message and cause; subclasses keep their name and narrow the reason', () => {
    const cause = new Error('403');
    const err = new SystemError(Reasons.notAuthorized, 'create index x: no permission', { cause });
    expect(err).toBeInstanceOf(ReasonedError);
    expect(err).toMatchObject({ name: 'SystemError', reason: 'NotAuthorized', message: 'create index x: no permission', cause });
  });
});

describe('errorReason', () => {
  it('reads the CamelCase reason of a ReasonedError, a TerminalError or an error of that shape', () => {
    expect(errorReason(new ReasonedError('SecretNotFound', 'x'))).toBe('SecretNotFound');
    expect(errorReason(new TerminalError('x', 'InvalidSpec'))).toBe('InvalidSpec');
    expect(errorReason(new TerminalError('x'))).toBe(Reasons.terminalError);
    expect(errorReason(Object.assign(new Error('x'), { reason: 'KafkaUnavailable' }))).toBe('KafkaUnavailable');
  });

  it("names the apiserver's RBAC refusal NotAuthorized, but not a 403 of a terminating namespace", () => {
    expect(errorReason(new KubeApiError('secrets is forbidden', 403, 'Forbidden'))).toBe('NotAuthorized');
    expect(errorReason(new KubeApiError('namespace ns is being terminated', 403, 'Forbidden', { causes: ['NamespaceTerminating'] }))).toBe('Forbidden');
    expect(errorReason(new KubeApiError('conflict', 409, 'Conflict'))).toBe('Conflict');
  });

  it('is undefined for anything else: no reason, a reason that is not CamelCase, not an object', () => {
    expect(errorReason(new Error('x'))).toBeUndefined();
    expect(errorReason(Object.assign(new Error('x'), { reason: 'not camel' }))).toBeUndefined();
    expect(errorReason(Object.assign(new Error('x'), { reason: 42 }))).toBeUndefined();
    expect(errorReason('boom')).toBeUndefined();
    expect(errorReason(null)).toBeUndefined();
  });
});
