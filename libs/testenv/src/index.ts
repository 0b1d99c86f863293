/**
 * `@domain-operators/testenv`: a real Kubernetes control plane and real Kafka, OpenSearch and Redis as local
 * processes, for integration and e2e tests. This file is the package's whole public API.
 */
export type { ComponentName } from './component.ts';
export { COMPONENT_NAMES } from './components.ts';
export type { ApiserverInfo, KafkaInfo, OpenSearchInfo, RedisInfo, S3Info, SaslUser, TestEnv } from './env-file.ts';
export { readEnvFile } from './env-file.ts';
export { downEnvironment, environmentStatus, upEnvironment } from './environment.ts';
export type { EnvironmentOptions, EnvironmentStatus } from './environment.ts';
export { resolvePaths } from './paths.ts';
export type { TestenvPaths } from './paths.ts';
export { ensureTestEnv } from './ensure.ts';
export { downKafkaPair, rebuildKafkaPair, stopKafkaPairBroker, upKafkaPair } from './kafka-pair.ts';
export { kafkaBrokerPid } from './kafka-pid.ts';
export type { KafkaPairOptions } from './kafka-pair.ts';
export type { KafkaRebuild } from './kafka/kafka.ts';
export { controlPlanePids } from './control-plane/pids.ts';
export type { ControlPlanePids } from './control-plane/pids.ts';
export type { NodeInfo } from './env-file.ts';
export { containerHostPid } from './node/container-pid.ts';
export { loadOperatorImage } from './node/images.ts';
export type { LoadedImage } from './node/images.ts';
export { NODE_IP, NODE_NAME, POD_CIDR, SERVICE_CIDR, CLUSTER_DNS_IP } from './node/addresses.ts';
export { ensureNodeAddonBinaries, type NodeAddonBinaries } from './node-build/addon-binaries.ts';
export { kstatus, parseKstatusOutput } from './kstatus/kstatus.ts';
export type { KstatusResult, KstatusStatus } from './kstatus/kstatus.ts';
export { ensureKstatusBuild } from './kstatus/build.ts';
export type { KstatusBuild } from './kstatus/build.ts';
