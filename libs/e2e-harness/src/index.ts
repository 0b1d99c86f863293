/**
 * `@domain-operators/e2e-harness`: runs an operator the way e2e suites need it (a Pod installed by its Helm chart on
 * the real test environment's node, or a local process authenticated as the chart's ServiceAccount) and the helpers those suites share.
 * This file is the package's whole public API.
 */
export { OPERATOR_SYSTEMS, operatorLayout } from './system.ts';
export type { OperatorLayout, OperatorSystem } from './system.ts';
export { helm, helmPath, helmTemplate, helmTemplateArgs } from './helm.ts';
export type { HelmResult, HelmTemplateOptions } from './helm.ts';
export { INSTALLED_KINDS, installableObjects, localOperatorArgs, operatorContainer, parseManifests, singleOfKind, typeOfManifest } from './manifests.ts';
export type { LocalEndpoints } from './manifests.ts';
export { clusterEndpoint, renderTokenKubeconfig, requestServiceAccountToken } from './kubeconfig.ts';
export type { TokenKubeconfigInput, TokenRequestOptions } from './kubeconfig.ts';
export { buildOperator } from './bundle.ts';
export { HARNESS_FIELD_MANAGER, installChartForProcess, installCrds, uninstallChartForProcess } from './install.ts';
export type { ChartInstallation, InstallChartOptions } from './install.ts';
export { adminClient, adminConnection, deleteNamespace, freshNamespace, randomSuffix, targetsExistingCluster } from './cluster.ts';
export type { AdminConnection } from './cluster.ts';
export { describeConditions, eventually, hasCondition, waitForCondition } from './wait.ts';
export { eventsOnceSeen } from './events.ts';
export type { EventsOnceSeenOptions } from './events.ts';
export { generationLies, kstatusReading, readyAtItsGeneration, watchStatuses } from './status-watch.ts';
export type { KstatusReading, StatusWatch, WatchedVersion } from './status-watch.ts';
export type { EventuallyOptions, ObjectWithConditions } from './wait.ts';
export { freePort } from './ports.ts';
export { OperatorStartError } from './operator-handle.ts';
export type { OperatorProcess, ProbeAnswer, ProcessExit, StartOperatorOptions } from './operator-handle.ts';
export { startOperator } from './start-operator.ts';
export { defaultReleaseNamespace, exitOf, IMAGE_DIGEST_ANNOTATION, podValues, startOperatorPod } from './operator-pod.ts';
export { startOperatorProcess } from './operator-process.ts';
export { backendsUnderTest, selectBackends } from './backends.ts';
export type { BackendName, Backends } from './backends.ts';
export { prepareE2eRun } from './global-setup.ts';
export type { PrepareE2eOptions } from './global-setup.ts';
export { exampleFiles, forTestRun, readManifests, withNamespaces } from './examples.ts';
export { EXAMPLES_FIELD_MANAGER, ExampleRun } from './example-run.ts';
export type { ExampleRenames } from './examples.ts';
export { describeObject, fillPlaceholders, forInstance, instanceName, isCustomResource, localExampleFiles, localReleaseNamespace, placeholderValues, readLocalExamples, systemOf, typeOfExample, typesOfCrds } from './local-examples.ts';
export { belongsTo, componentsFor, deploymentName, formatProgress, kubectlGetArgs, LOCAL_STACK_FIELD_MANAGER, LOCAL_STACK_READY, operatorImage, startLocalStack } from './local-stack.ts';
export { humanAge, kubectlGetPodsArgs, logsCommand, operatorPodHealth, podHealthChange, podStatus, podTable } from './local-stack-pods.ts';
export type { OperatorPodHealth } from './local-stack-pods.ts';
export type { LocalStack, LocalStackDeps, LocalStackOptions } from './local-stack.ts';
export { LOCAL_STACK_USAGE, parseLocalStackArgs } from './local-stack-args.ts';
export type { LocalStackArgs } from './local-stack-args.ts';
export { operatorSmokeSuite } from './smoke-suite.ts';
export type { AccessCheck, SmokeSuiteOptions } from './smoke-suite.ts';
export { auditOffset, countWrites, countWritesByObject, parseWrites, writesSince } from './audit.ts';
export type { AuditWrite } from './audit.ts';
export { counterIncrease, cpuSecondsFromStat, cpuSecondsOf, median, metricSum, waitForCount } from './measure.ts';
export type { CounterIncrease } from './measure.ts';
export { runAdmissionCases } from './admission-cases.ts';
export type { AdmissionRun, AdmissionRunOptions } from './admission-cases.ts';
export { admissionTemplateSuite } from './admission-template-suite.ts';
export type { AdmissionTemplateSuiteOptions } from './admission-template-suite.ts';
export { adminKubeconfig, kubectlApply } from './kubectl-apply.ts';
export type { Applied } from './kubectl-apply.ts';
export { installChartAdmission } from './chart-admission.ts';
export type { ChartAdmission, ChartAdmissionOptions } from './chart-admission.ts';
// kstatus as Flux and kpt run it (cli-utils, built by testenv), for the e2e suites' status checks.
export { kstatus } from '@domain-operators/testenv';
export type { KstatusResult, KstatusStatus } from '@domain-operators/testenv';
export { kstatusNow } from './kstatus-now.ts';
