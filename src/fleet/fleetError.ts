/** What went wrong in a fleet; see {@link FleetError}. */
export type FleetErrorReason = 'provider' | 'duplicateCluster' | 'credentials' | 'handler';

/**
 * A fleet's problem, reported on `errors$` while the fleet goes on; `reason` says which:
 * - `provider`: a provider ended with an error. It finds no more clusters; those it engaged stay
 *   engaged on their last credentials until they leave or the fleet is disposed.
 * - `duplicateCluster`: a second engagement named a cluster that is engaged already. The first
 *   wins; the second waits and takes over when the first leaves.
 * - `credentials`: a cluster's credentials could not be used (a KubeConfig without a current
 *   cluster) or its `credentials$` failed. A cluster not engaged yet is not engaged; one engaged
 *   keeps its previous credentials, or leaves when `credentials$` failed.
 * - `handler`: a fleet informer's handler threw; the handler goes on.
 */
export class FleetError extends Error {
  /** Always `FleetError`. */
  override readonly name = 'FleetError';
  /** What went wrong: `provider`, `duplicateCluster`, `credentials` or `handler` (see the class). */
  readonly reason: FleetErrorReason;
  /** The cluster concerned, when there is one. */
  readonly cluster: string | undefined;
  constructor(
    reason: FleetErrorReason,
    message: string,
    options: {
      /** The cluster concerned, when there is one. */
      readonly cluster?: string | undefined;
      /** What failed underneath, kept as the error's `cause`. */
      readonly cause?: unknown;
    } = {},
  ) {
    super(`[fleet] ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.cluster = options.cluster;
  }
}
