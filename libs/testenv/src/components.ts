import type { Component, ComponentName } from './component.ts';
import { apiserverComponent } from './control-plane/apiserver.ts';
import type { ApiserverInfo, KafkaInfo, OpenSearchInfo, RedisInfo, S3Info } from './env-file.ts';
import { kafkaComponent } from './kafka/kafka.ts';
import { opensearchComponent } from './opensearch/opensearch.ts';
import { redisComponent } from './redis/redis.ts';
import { s3Component } from './s3/s3.ts';

/** Every component's info type, by name. */
export interface ComponentInfos {
  apiserver: ApiserverInfo;
  kafka: KafkaInfo;
  opensearch: OpenSearchInfo;
  redis: RedisInfo;
  s3: S3Info;
}

/** All components in start order. */
export const COMPONENT_NAMES: readonly ComponentName[] = ['apiserver', 'kafka', 'opensearch', 'redis', 's3'];

/** The component implementing each name. */
export const COMPONENTS: { readonly [N in ComponentName]: Component<ComponentInfos[N]> } = {
  apiserver: apiserverComponent,
  kafka: kafkaComponent,
  opensearch: opensearchComponent,
  redis: redisComponent,
  s3: s3Component,
};

/** True when `name` is a component name. */
export function isComponentName(name: string): name is ComponentName {
  return (COMPONENT_NAMES as readonly string[]).includes(name);
}
