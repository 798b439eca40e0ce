import type { KubeStatus } from './kubeStatus.js';

/**
 * An API failure: the test server answers it with `status.code` and the {@link KubeStatus} as body.
 * The control API (`server.create()`, `server.update()`…) throws it for the same conditions, e.g. a
 * 409 on a stale `resourceVersion`.
 */
export class KubeApiError extends Error {
  override readonly name = 'KubeApiError';
  /** The Status body the server sends. */
  readonly status: KubeStatus;

  constructor(status: KubeStatus) {
    super(`[informer] test API server: ${status.code} ${status.reason}: ${status.message}`);
    this.status = status;
  }
}
