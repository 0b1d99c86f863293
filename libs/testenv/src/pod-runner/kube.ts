import { ApiException, CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';

/** The API clients the runner uses. */
export interface Kube {
  readonly config: KubeConfig;
  readonly core: CoreV1Api;
}

/** Clients for the cluster in `kubeconfigFile`. */
export function loadKube(kubeconfigFile: string): Kube {
  const config = new KubeConfig();
  config.loadFromFile(kubeconfigFile);
  return { config, core: config.makeApiClient(CoreV1Api) };
}

/** Request options making a `patch…` call send a JSON merge patch. */
export const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** The HTTP status of an API error, or `undefined` for other errors. */
export function apiStatus(err: unknown): number | undefined {
  return err instanceof ApiException ? (err as ApiException<unknown>).code : undefined;
}

/** A short description of an error for the log, without response bodies that may hold secrets. */
export function describeError(err: unknown): string {
  if (err instanceof ApiException) return `HTTP ${(err as ApiException<unknown>).code}: ${(err as ApiException<unknown>).message.slice(0, 300)}`;
  return err instanceof Error ? err.message : String(err);
}
