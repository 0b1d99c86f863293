import { describe, expect, it } from 'vitest';
import type { CoreEvent } from './member-refusal.ts';
import { eventsByStatefulSet, isCreateOutcome, memberRefusal, missingMembers, parseCreateOutcome, refusalReasonOf, REFUSAL_REASONS } from './member-refusal.ts';

const UID = 'sts-uid';
const QUOTA = 'exceeded quota: test-cpu-quota, requested: requests.cpu=100m, used: requests.cpu=200m, limited: requests.cpu=250m';

// Messages as Kubernetes 1.35's StatefulSet controller wrote them against testenv.
function event(reason: string, message: string, lastTimestamp: string, uid = UID): CoreEvent {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { namespace: 'team-a', name: `cache.${lastTimestamp}` },
    involvedObject: { kind: 'StatefulSet', namespace: 'team-a', name: 'cache', uid },
    reason,
    message,
    type: reason === 'FailedCreate' ? 'Warning' : 'Normal',
    lastTimestamp,
  };
}
const refusedPod = (pod: string, at: string, uid?: string): CoreEvent =>
  event('FailedCreate', `Create Pod ${pod} in StatefulSet cache failed error: pods "${pod}" is forbidden: ${QUOTA}`, at, uid);
const createdPod = (pod: string, at: string): CoreEvent => event('SuccessfulCreate', `Create Pod ${pod} in StatefulSet cache successful`, at);
const query = (missing: string[]): { statefulSet: { name: string; uid: string }; missing: string[] } => ({ statefulSet: { name: 'cache', uid: UID }, missing });

describe('parseCreateOutcome', () => {
  it('reads the Pod and claim messages of both outcomes, with the apiserver message of a refusal', () => {
    expect(parseCreateOutcome(refusedPod('cache-2', '2026-12-01T09:39:46Z'))).toEqual({
      pod: 'cache-2',
      statefulSet: 'cache',
      refusal: `pods "cache-2" is forbidden: ${QUOTA}`,
      at: Date.parse('2026-12-01T09:39:46Z'),
    });
    expect(parseCreateOutcome(createdPod('cache-2', '2026-12-01T09:41:09Z'))).toEqual({ pod: 'cache-2', statefulSet: 'cache', at: Date.parse('2026-12-01T09:41:09Z') });
    const claimRefused = event(
      'FailedCreate',
      'Create Claim data-cache-1 for Pod cache-1 in StatefulSet cache failed error: persistentvolumeclaims "data-cache-1" is forbidden: exceeded quota: q, requested: persistentvolumeclaims=1, used: persistentvolumeclaims=2, limited: persistentvolumeclaims=2',
      '2026-12-01T09:39:46Z',
    );
    expect(parseCreateOutcome(claimRefused)?.pod).toBe('cache-1');
    expect(parseCreateOutcome(claimRefused)?.refusal).toMatch(/^persistentvolumeclaims "data-cache-1" is forbidden: exceeded quota: q,/);
    expect(parseCreateOutcome(event('SuccessfulCreate', 'Create Claim data-cache-1 Pod cache-1 in StatefulSet cache success', '2026-12-01T09:41:09Z'))).toMatchObject({ pod: 'cache-1' });
  });

  it('reads older lowercase messages and aggregated ones, and ignores everything else', () => {
    expect(parseCreateOutcome(event('FailedCreate', 'create Pod cache-0 in StatefulSet cache failed error: nope', '2026-12-01T09:00:00Z'))).toMatchObject({ pod: 'cache-0', refusal: 'nope' });
    expect(parseCreateOutcome(event('FailedCreate', '(combined from similar events): Create Pod cache-9 in StatefulSet cache failed error: x', '2026-12-01T09:00:00Z'))).toMatchObject({ pod: 'cache-9', refusal: 'x' });
    expect(parseCreateOutcome(event('SuccessfulDelete', 'delete Pod cache-3 in StatefulSet cache successful', '2026-12-01T09:00:00Z'))).toBeUndefined();
    expect(parseCreateOutcome(event('FailedCreate', 'Create Pod cache-0 in StatefulSet cache successful', '2026-12-01T09:00:00Z'))).toBeUndefined();
    expect(parseCreateOutcome(event('FailedCreate', 'something else entirely', '2026-12-01T09:00:00Z'))).toBeUndefined();
  });

  it('takes the newer recorders\' times when lastTimestamp is absent', () => {
    const { lastTimestamp: _omitted, ...rest } = createdPod('cache-0', '2026-12-01T09:00:00Z');
    expect(parseCreateOutcome({ ...rest, eventTime: '2026-12-01T10:00:00.123456Z' })?.at).toBe(Date.parse('2026-12-01T10:00:00.123Z'));
    expect(parseCreateOutcome({ ...rest, series: { lastObservedTime: '2026-12-01T11:00:00.000000Z' }, eventTime: '2026-12-01T10:00:00Z' })?.at).toBe(Date.parse('2026-12-01T11:00:00Z'));
  });
});

describe('memberRefusal', () => {
  it('reports a quota refusal of a missing member with the apiserver message', () => {
    const events = [createdPod('cache-0', '2026-12-01T09:39:41Z'), createdPod('cache-1', '2026-12-01T09:39:41Z'), refusedPod('cache-2', '2026-12-01T09:39:46Z')];
    expect(memberRefusal(events, query(['cache-2']))).toEqual({ reason: 'QuotaExceeded', pods: ['cache-2'], message: `pods "cache-2" is forbidden: ${QUOTA}` });
  });

  it('is silent once a later attempt succeeded, or when the member exists, or nothing was attempted', () => {
    const refused = refusedPod('cache-2', '2026-12-01T09:39:46Z');
    expect(memberRefusal([refused, createdPod('cache-2', '2026-12-01T09:41:09Z')], query(['cache-2']))).toBeUndefined();
    expect(memberRefusal([refused, createdPod('cache-2', '2026-12-01T09:39:46Z')], query(['cache-2']))).toBeUndefined(); // a tie goes to the success
    expect(memberRefusal([refused], query([]))).toBeUndefined();
    expect(memberRefusal([refused], query(['cache-3']))).toBeUndefined();
  });

  it('reports a refusal that came after an earlier success (the member was deleted and its re-creation refused)', () => {
    expect(memberRefusal([createdPod('cache-2', '2026-12-01T09:00:00Z'), refusedPod('cache-2', '2026-12-01T09:05:00Z')], query(['cache-2']))).toMatchObject({ reason: 'QuotaExceeded' });
  });

  it('ignores Events of an earlier StatefulSet of the same name, and any while the StatefulSet is unknown', () => {
    expect(memberRefusal([refusedPod('cache-2', '2026-12-01T09:39:46Z', 'old-uid')], query(['cache-2']))).toBeUndefined();
    expect(memberRefusal([refusedPod('cache-2', '2026-12-01T09:39:46Z', '')], { statefulSet: { name: 'cache', uid: '' }, missing: ['cache-2'] })).toBeUndefined();
  });

  it('names every refused member with the newest message, preferring quota refusals', () => {
    const other = event('FailedCreate', 'Create Pod cache-1 in StatefulSet cache failed error: pods "cache-1" is forbidden: violates PodSecurity "restricted:latest": privileged', '2026-12-01T09:50:00Z');
    const events = [refusedPod('cache-3', '2026-12-01T09:40:00Z'), refusedPod('cache-2', '2026-12-01T09:41:00Z'), other];
    expect(memberRefusal(events, query(['cache-1', 'cache-2', 'cache-3']))).toEqual({ reason: 'QuotaExceeded', pods: ['cache-2', 'cache-3'], message: `pods "cache-2" is forbidden: ${QUOTA}` });
    expect(memberRefusal([other], query(['cache-1']))).toEqual({ reason: 'MemberCreateFailed', pods: ['cache-1'], message: 'pods "cache-1" is forbidden: violates PodSecurity "restricted:latest": privileged' });
  });
});

describe('refusalReasonOf', () => {
  it('tells ResourceQuota refusals from the rest', () => {
    expect(refusalReasonOf(`pods "cache-2" is forbidden: ${QUOTA}`)).toBe(REFUSAL_REASONS.quotaExceeded);
    expect(refusalReasonOf('pods "cache-0" is forbidden: failed quota: test-cpu-quota: must specify requests.cpu for: redis')).toBe(REFUSAL_REASONS.quotaExceeded);
    expect(refusalReasonOf('admission webhook "x" denied the request')).toBe(REFUSAL_REASONS.memberCreateFailed);
  });
});

describe('eventsByStatefulSet and isCreateOutcome', () => {
  it('indexes Events about StatefulSets by namespace and name, and passes only create outcomes', () => {
    expect(eventsByStatefulSet(createdPod('cache-0', '2026-12-01T09:00:00Z'))).toEqual(['team-a/cache']);
    expect(eventsByStatefulSet({ ...createdPod('cache-0', '2026-12-01T09:00:00Z'), involvedObject: { kind: 'Pod', name: 'cache-0' } })).toEqual([]);
    expect(isCreateOutcome(refusedPod('cache-0', '2026-12-01T09:00:00Z'))).toBe(true);
    expect(isCreateOutcome(event('SuccessfulDelete', 'delete Pod cache-3 in StatefulSet cache successful', '2026-12-01T09:00:00Z'))).toBe(false);
  });
});

describe('missingMembers', () => {
  it('lists the ordinals below the desired count without a Pod', () => {
    expect(missingMembers('cache', 3, ['cache-0', 'cache-2', 'other-1'])).toEqual(['cache-1']);
    expect(missingMembers('cache', 2, ['cache-0', 'cache-1', 'cache-2'])).toEqual([]);
    expect(missingMembers('cache', 0, [])).toEqual([]);
  });
});
