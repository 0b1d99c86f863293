/**
 * OpensearchSnapshotPolicy → OpenSearchSnapshotPolicy, where the semantics fit. Theirs is a Snapshot Management
 * policy that runs inside OpenSearch; ours is scheduled by our operator into an OpenSearchSnapshotRepository. Ours
 * does not adopt the SM policy, so the converted policy is created suspended: two schedulers never snapshot at once.
 */
import { NotConvertible, optionalBoolean, optionalRecord, optionalString, ourObject, present, warnUnknownFields } from './kind-context.ts';
import type { KindContext, KindConverter } from './kind-context.ts';

const FIVE_FIELDS = /^\S+\s+\S+\s+\S+\s+\S+\s+\S+$/;
const DURATION = /^[1-9][0-9]*(m|h|d|w)$/;

function notCarried(value: Readonly<Record<string, unknown>> | undefined, keys: readonly string[], at: string, context: KindContext): void {
  for (const key of keys) {
    if (value?.[key] !== undefined && value[key] !== null) context.warn(`${at}${key} is not supported by ours and is not carried over`);
  }
}

function count(value: unknown, at: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new NotConvertible(`${at} must be a non-negative integer`);
  return value;
}

function retentionOf(deletion: Readonly<Record<string, unknown>> | undefined, context: KindContext): Record<string, unknown> | undefined {
  if (deletion === undefined) return undefined;
  warnUnknownFields(deletion, ['schedule', 'timeLimit', 'deleteCondition'], 'spec.deletion.', context);
  notCarried(deletion, ['schedule', 'timeLimit'], 'spec.deletion.', context);
  const condition = optionalRecord(deletion, 'deleteCondition', 'spec.deletion.');
  if (condition === undefined) return undefined;
  const at = 'spec.deletion.deleteCondition.';
  warnUnknownFields(condition, ['maxCount', 'maxAge', 'minCount'], at, context);
  const maxCount = count(condition['maxCount'], `${at}maxCount`);
  const minCount = count(condition['minCount'], `${at}minCount`);
  let maxAge = optionalString(condition, 'maxAge', at);
  if (maxAge !== undefined && !DURATION.test(maxAge)) {
    context.warn(`${at}maxAge ${maxAge} is not a duration ours reads (m, h, d, w, e.g. 7d); it is not carried over`);
    maxAge = undefined;
  }
  const retention = { ...present('maxCount', maxCount === 0 ? undefined : maxCount), ...present('maxAge', maxAge), ...present('minCount', minCount) };
  return Object.keys(retention).length > 0 ? retention : undefined;
}

/**
 * Converts one OpensearchSnapshotPolicy. Refuses one that snapshots the cluster state or every index (ours
 * snapshots a namespace's indices only) or whose cron is not five fields.
 */
export const convertSnapshotPolicy: KindConverter = (input, context) => {
  const spec = input.spec;
  warnUnknownFields(spec, ['opensearchCluster', 'policyName', 'description', 'enabled', 'snapshotConfig', 'creation', 'deletion', 'notification'], 'spec.', context);
  notCarried(spec, ['description', 'notification'], 'spec.', context);
  const config = optionalRecord(spec, 'snapshotConfig', 'spec.');
  const creation = optionalRecord(spec, 'creation', 'spec.');
  if (config === undefined || creation === undefined) throw new NotConvertible('spec.snapshotConfig and spec.creation are required');
  warnUnknownFields(config, ['dateFormat', 'dateFormatTimezone', 'indices', 'repository', 'ignoreUnavailable', 'includeGlobalState', 'partial', 'metadata'], 'spec.snapshotConfig.', context);
  notCarried(config, ['dateFormat', 'dateFormatTimezone', 'ignoreUnavailable', 'partial', 'metadata'], 'spec.snapshotConfig.', context);
  if (optionalBoolean(config, 'includeGlobalState', 'spec.snapshotConfig.') === true) {
    throw new NotConvertible('spec.snapshotConfig.includeGlobalState is true: ours never snapshots the cluster state (a namespace may not)');
  }
  const repository = optionalString(config, 'repository', 'spec.snapshotConfig.');
  if (repository === undefined) throw new NotConvertible('spec.snapshotConfig.repository is required');
  const indices = (optionalString(config, 'indices', 'spec.snapshotConfig.') ?? '')
    .split(',')
    .map((index) => index.trim())
    .filter((index) => index !== '');
  if (indices.length === 0) throw new NotConvertible("spec.snapshotConfig.indices is empty (every index): ours snapshots a namespace's own indices; list them");
  warnUnknownFields(creation, ['schedule', 'timeLimit'], 'spec.creation.', context);
  notCarried(creation, ['timeLimit'], 'spec.creation.', context);
  const cron = optionalRecord(optionalRecord(creation, 'schedule', 'spec.creation.') ?? {}, 'cron', 'spec.creation.schedule.');
  const expression = cron === undefined ? undefined : optionalString(cron, 'expression', 'spec.creation.schedule.cron.');
  if (expression === undefined || !FIVE_FIELDS.test(expression.trim())) {
    throw new NotConvertible('spec.creation.schedule.cron.expression must be a five-field cron expression');
  }
  const policyName = optionalString(spec, 'policyName', 'spec.') ?? input.name;
  context.warn(
    `ours does not adopt the Snapshot Management policy ${policyName}: it is created suspended. When it is Ready, stop theirs ` +
      `(POST _plugins/_sm/policies/${policyName}/_stop, or delete it) and set spec.suspend: false; ours names its snapshots ` +
      `${input.namespace}-${input.name}-<time> and its retention counts only those`,
  );
  context.warn(`repositoryRef names OpenSearchSnapshotRepository ${repository}: create it for the existing repository (adopt annotation) and let its tenancy admit namespace ${input.namespace}`);
  if (optionalBoolean(spec, 'enabled', 'spec.') === false) context.warn('spec.enabled is false: keep spec.suspend true');
  return [
    ourObject(
      'OpenSearchSnapshotPolicy',
      input,
      {
        repositoryRef: { name: repository },
        indices,
        schedule: expression.trim(),
        ...present('timeZone', cron === undefined ? undefined : optionalString(cron, 'timezone', 'spec.creation.schedule.cron.')),
        ...present('retention', retentionOf(optionalRecord(spec, 'deletion', 'spec.'), context)),
        includeGlobalState: false,
        suspend: true,
      },
      context.options,
    ),
  ];
};
