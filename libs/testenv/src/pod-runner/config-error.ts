/**
 * A container cannot be created from its spec as things stand (a missing Secret or ConfigMap key, clashing
 * ports…). The kubelet reports these as `CreateContainerConfigError` and retries; so does the runner.
 */
export class ContainerConfigError extends Error {
  /** The waiting reason shown in the container status. */
  readonly reason: string;

  constructor(message: string, reason = 'CreateContainerConfigError') {
    super(message);
    this.name = 'ContainerConfigError';
    this.reason = reason;
  }
}
