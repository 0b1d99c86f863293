import { describe, expect, it } from 'vitest';
import { parseRestorePlan, parseTerminationMessage, restoringPods, terminationMessage } from './restore-plan.ts';

const SHA = 'a'.repeat(64);

describe('restore plan', () => {
  it('parses an s3 plan and a file plan, and refuses incomplete ones', () => {
    const s3 = { location: 's3://b/k', sha256: SHA, pod: 'c-0', s3: { bucket: 'b', key: 'k', region: 'us-east-1', forcePathStyle: true } };
    expect(parseRestorePlan(JSON.stringify(s3))).toEqual(s3);
    const file = { location: 'pvc://c/p', sha256: SHA, pod: 'c-0', file: { path: 'p' } };
    expect(parseRestorePlan(JSON.stringify(file))).toEqual(file);
    expect(parseRestorePlan('nope')).toBe('the restore plan is not JSON');
    expect(typeof parseRestorePlan(JSON.stringify({ ...file, sha256: 'XYZ' }))).toBe('string');
    expect(typeof parseRestorePlan(JSON.stringify({ ...file, file: { path: '../etc/passwd' } }))).toBe('string');
    expect(typeof parseRestorePlan(JSON.stringify({ ...s3, s3: { bucket: 'b' } }))).toBe('string');
  });

  it('names the replicas that restore beside the primary; a plan without them restores the primary alone', () => {
    const plan = { location: 'pvc://c/p', sha256: SHA, pod: 'c-0', replicas: ['c-1', 'c-2'], file: { path: 'p' } };
    expect(parseRestorePlan(JSON.stringify(plan))).toEqual(plan);
    expect(restoringPods(plan)).toEqual(['c-0', 'c-1', 'c-2']);
    expect(restoringPods({ pod: 'c-0' })).toEqual(['c-0']);
    expect(typeof parseRestorePlan(JSON.stringify({ ...plan, replicas: [1] }))).toBe('string');
  });

  it('round-trips a termination message, cut to 4096 bytes, and ignores foreign ones', () => {
    const failure = { reason: 'RestoreVerificationFailed' as const, message: 'x'.repeat(10_000) };
    const text = terminationMessage(failure);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(parseTerminationMessage(text)?.reason).toBe('RestoreVerificationFailed');
    expect(parseTerminationMessage('Error: something else')).toBeUndefined();
    expect(parseTerminationMessage('{"reason":"Other","message":"m"}')).toBeUndefined();
    expect(parseTerminationMessage(undefined)).toBeUndefined();
  });
});
