import type { Component, ComponentName } from './component.ts';
import { apiserverComponent } from './control-plane/apiserver.ts';
import type { ApiserverInfo, KafkaInfo, OpenSearchInfo, RedisInfo } from './env-file.ts';
import { kafkaComponent } from './kafka/kafka.ts';
import { opensearchComponent } from './opensearch/opensearch.ts';
import { redisComponent } from './redis/redis.ts';

/** Every component's info type, by name. */
export interface ComponentInfos {
  apiserver: ApiserverInfo;
  kafka: KafkaInfo;
  opensearch: OpenSearchInfo;
  redis: RedisInfo;
}

/** All components in start order. */
export const COMPONENT_NAMES: readonly ComponentName[] = ['apiserver', 'kafka', 'opensearch', 'redis'];

/** The component implementing each name. */
export const COMPONENTS: { readonly [N in ComponentName]: Component<ComponentInfos[N]> } = {
  apiserver: apiserverComponent,
  kafka: kafkaComponent,
  opensearch: opensearchComponent,
  redis: redisComponent,
};

/** True when `name` is a component name. */
export function isComponentName(name: string): name is ComponentName {
  return (COMPONENT_NAMES as readonly string[]).includes(name);
}
