import type { KubeStatus } from './kubeStatus.js';

/**
 * An API failure inside the test server: it answers with `status.code` and the `Status` as body.
 * (Not the client-side `KubeApiError` of `rx-informer`, which is what a client makes of such a body.)
 * The control API (`server.create()`, `server.update()`…) throws it for the same conditions, e.g. a
 * 409 on a stale `resourceVersion`.
 */
export class TestApiServerError extends Error {
  /** Always `TestApiServerError`. */
  override readonly name = 'TestApiServerError';
  /** The Status body the server sends. */
  readonly status: KubeStatus;

  constructor(status: KubeStatus) {
    super(`[testServer] ${status.code} ${status.reason}: ${status.message}`);
    this.status = status;
  }
}
