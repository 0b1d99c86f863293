/**
 * Why members are missing: the StatefulSet controller's own account of its create attempts. The StatefulSet
 * controller creates the member Pods and their claims; when the apiserver refuses one (a ResourceQuota, Pod Security,
 * a webhook), the only record is a `FailedCreate` Warning Event on the StatefulSet carrying the apiserver's message,
 * and a later `SuccessfulCreate` when a retry got through. These pure functions read those Events from the cache and
 * say whether the latest attempt for a missing member was refused, and with which message (ADR 0012, addendum).
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { resourceType } from '@domain-operators/reconcile';
import type { IndexFunc, InformerRequest } from '@domain-operators/reconcile';

/** Condition reasons (on `Ready`) for members the apiserver refused to create. */
export const REFUSAL_REASONS = {
  /** A ResourceQuota refused a member Pod or claim (`exceeded quota: …`, or `failed quota: …: must specify …`). */
  quotaExceeded: 'QuotaExceeded',
  /** Anything else refused it (Pod Security admission, a LimitRange, a webhook). */
  memberCreateFailed: 'MemberCreateFailed',
} as const;

/** A value of {@link REFUSAL_REASONS}. */
export type RefusalReason = (typeof REFUSAL_REASONS)[keyof typeof REFUSAL_REASONS];

/**
 * A `core/v1` Event as the StatefulSet controller writes it (the legacy recorder: `message`, `lastTimestamp`,
 * `count`; `eventTime` and `series` only from newer recorders). Times are RFC 3339 strings as they come off the wire.
 */
export interface CoreEvent extends KubernetesObject {
  readonly involvedObject: { readonly kind?: string; readonly namespace?: string; readonly name?: string; readonly uid?: string };
  readonly reason?: string;
  readonly message?: string;
  readonly type?: string;
  readonly firstTimestamp?: string | null;
  readonly lastTimestamp?: string | null;
  readonly eventTime?: string | null;
  readonly series?: { readonly lastObservedTime?: string } | null;
}

/** The `core/v1` Event kind (the StatefulSet controller's recorder writes this API, not `events.k8s.io`). */
export const coreEventType = resourceType<CoreEvent>({ group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true });

/**
 * What the Event informer caches: Events about StatefulSets only (server-side field selector), so the cache holds
 * no Pod, node or application Events.
 */
export const STATEFULSET_EVENTS_SCOPE: NonNullable<InformerRequest<CoreEvent>['scope']> = { fieldSelector: 'involvedObject.kind=StatefulSet' };

/** Name of the Event index `namespace/<StatefulSet name>`. */
export const EVENTS_BY_STATEFULSET = 'byStatefulSet';

/** Indexes Events about a StatefulSet under `namespace/<its name>`. Pure. */
export const eventsByStatefulSet: IndexFunc<CoreEvent> = (event) => {
  const about = event.involvedObject;
  if (about.kind !== 'StatefulSet' || about.name === undefined) return [];
  return [`${about.namespace ?? event.metadata?.namespace ?? ''}/${about.name}`];
};

const CREATE_REASONS = { failed: 'FailedCreate', succeeded: 'SuccessfulCreate' } as const;

/** True for the Events that tell a create attempt's outcome (`FailedCreate`, `SuccessfulCreate`). Pure. */
export function isCreateOutcome(event: CoreEvent): boolean {
  return event.reason === CREATE_REASONS.failed || event.reason === CREATE_REASONS.succeeded;
}

/** One create attempt of the StatefulSet controller, as its Event tells it. */
export interface CreateOutcome {
  /** The member Pod the attempt was for (a claim's attempt names its Pod too). */
  readonly pod: string;
  readonly statefulSet: string;
  /** The apiserver's refusal; undefined when the attempt succeeded. */
  readonly refusal?: string;
  /** When it last happened (ms since the epoch; the Event's `lastTimestamp`, else its newer-recorder times). */
  readonly at: number;
}

// The StatefulSet controller's messages (stateful_pod_control.go; the verb is capitalised since Kubernetes 1.3x):
//   "Create Pod <pod> in StatefulSet <sts> successful"
//   "Create Pod <pod> in StatefulSet <sts> failed error: <apiserver message>"
//   "Create Claim <claim> Pod <pod> in StatefulSet <sts> success"
//   "Create Claim <claim> for Pod <pod> in StatefulSet <sts> failed error: <apiserver message>"
// The recorder's aggregator prefixes "(combined from similar events): " once many differ only in the Pod name.
const CREATE_MESSAGE = /^(?:\(combined from similar events\): )?create (?:claim \S+ (?:for )?)?pod (\S+) in statefulset (\S+) (?:successful|success|failed error: ([\s\S]*))$/i;

function timeOf(event: CoreEvent): number {
  for (const t of [event.lastTimestamp, event.series?.lastObservedTime, event.eventTime, event.firstTimestamp, event.metadata?.creationTimestamp]) {
    const ms = t === undefined || t === null ? Number.NaN : Date.parse(String(t));
    if (!Number.isNaN(ms)) return ms;
  }
  return 0;
}

/** The create attempt an Event records, or undefined for any other Event. Pure. */
export function parseCreateOutcome(event: CoreEvent): CreateOutcome | undefined {
  if (!isCreateOutcome(event)) return undefined;
  const match = CREATE_MESSAGE.exec(event.message ?? '');
  if (match === null) return undefined;
  const [, pod = '', statefulSet = '', refusal] = match;
  const failed = event.reason === CREATE_REASONS.failed;
  if (failed !== (refusal !== undefined)) return undefined; // reason and message disagree: not a message we know
  return { pod, statefulSet, at: timeOf(event), ...(refusal !== undefined && { refusal }) };
}

/** Which ResourceQuota-style refusal a message is. Pure. */
export function refusalReasonOf(message: string): RefusalReason {
  return /\b(?:exceeded|failed) quota: /.test(message) ? REFUSAL_REASONS.quotaExceeded : REFUSAL_REASONS.memberCreateFailed;
}

/** Missing members whose latest create attempt was refused. */
export interface MemberRefusal {
  readonly reason: RefusalReason;
  /** The refused members, in ordinal order. */
  readonly pods: readonly string[];
  /** The apiserver's message of the latest refusal (it names one Pod or claim; the others differ only in the name). */
  readonly message: string;
}

/** What {@link memberRefusal} looks at besides the Events. */
export interface RefusalQuery {
  /** The StatefulSet (its UID: Events about an earlier StatefulSet of the same name do not count). */
  readonly statefulSet: { readonly name: string; readonly uid: string };
  /** Member Pods that should exist and do not (no Pod object at all, not even a terminating one), in ordinal order. */
  readonly missing: readonly string[];
}

/**
 * The refusal to report, if any: for each missing member, its latest create attempt (by Event time; a success
 * wins a tie, and the next refused retry moves the Event's time on) must be a refusal. A missing member without
 * any attempt recorded is just pending. Events are lossy (the recorder drops some under a burst, they expire after
 * the apiserver's event TTL), so the answer may say "not refused" when it was; it never invents a refusal. A
 * quota refusal wins over others when both occur. Pure.
 */
export function memberRefusal(events: readonly CoreEvent[], query: RefusalQuery): MemberRefusal | undefined {
  if (query.missing.length === 0 || query.statefulSet.uid === '') return undefined;
  const missing = new Set(query.missing);
  const latest = new Map<string, CreateOutcome>();
  for (const event of events) {
    if (event.involvedObject.uid !== query.statefulSet.uid) continue;
    const outcome = parseCreateOutcome(event);
    if (outcome?.statefulSet !== query.statefulSet.name || !missing.has(outcome.pod)) continue;
    const seenAt = latest.get(outcome.pod)?.at ?? Number.NEGATIVE_INFINITY;
    if (outcome.at > seenAt || (outcome.at === seenAt && outcome.refusal === undefined)) latest.set(outcome.pod, outcome);
  }
  const refused = query.missing.flatMap((pod) => {
    const outcome = latest.get(pod);
    return outcome?.refusal === undefined ? [] : [{ ...outcome, refusal: outcome.refusal, reason: refusalReasonOf(outcome.refusal) }];
  });
  if (refused.length === 0) return undefined;
  const quota = refused.filter((r) => r.reason === REFUSAL_REASONS.quotaExceeded);
  const reported = quota.length > 0 ? quota : refused;
  const newest = reported.reduce((a, b) => (b.at > a.at ? b : a));
  return { reason: newest.reason, pods: reported.map((r) => r.pod), message: newest.refusal };
}

/** Member Pod names `<statefulSet>-<n>` for `n` below `desired` that are not in `existing`. Pure. */
export function missingMembers(statefulSet: string, desired: number, existing: Iterable<string>): string[] {
  const present = new Set(existing);
  return Array.from({ length: Math.max(0, desired) }, (_, n) => `${statefulSet}-${n}`).filter((name) => !present.has(name));
}
