import type { ReflectorConfig } from './reflector/reflectorConfig.js';

/**
 * Options of {@link listWatch}: everything of {@link ReflectorConfig} plus what shapes the HTTP
 * requests. One config builds both the LIST and the WATCH URL, so they always agree.
 */
export interface ListWatchConfig<T> extends ReflectorConfig<T> {
  /** `labelSelector`, on list and watch. */
  readonly labelSelector?: string;
  /** `fieldSelector`, on list and watch. */
  readonly fieldSelector?: string;
  /**
   * `shardSelector`, on list, watch and streaming list (KEP-5866; Kubernetes 1.36+ with the
   * kube-apiserver feature gate `ShardedListAndWatch`): only objects whose hashed uid (or
   * namespace) lies in one of the ranges, e.g. built by `shardSelectorOf` (`rx-informer/controller`). Checked when the
   * source is built (a bad one is a `TypeError`: the server would answer it with a 500). A server
   * that ignores it — no `metadata.shardInfo` on a list, or an object outside the ranges — ends the
   * source with a `ShardSelectorError` (`rx-informer/controller`).
   */
  readonly shardSelector?: string;
  /**
   * Ask for `PartialObjectMetadata` (metadata only: no spec, no status) on list and watch, through
   * the `Accept` header. Objects then have `kind: PartialObjectMetadata`, `apiVersion: meta.k8s.io/v1`.
   */
  readonly metadataOnly?: boolean;
  /** Longest watch event line accepted, in bytes. Default 16 MiB. Longer → {@link TransportError} (`lineTooLong`), relist. */
  readonly maxLineBytes?: number;
  /**
   * Longest LIST response body accepted (one page), in bytes. Default 512 MiB, about the longest
   * text V8 can decode, so a larger body could not be parsed anyway. A body announced longer by its
   * `Content-Length`, or growing longer as it arrives, is abandoned there →
   * {@link TransportError} (`bodyTooLarge`), backoff, relist; the cache keeps what it had. Lower it
   * to bound the memory one page can take; lists are paged (`pageSize`), but a server may ignore
   * the limit (a list served from the watch cache does).
   */
  readonly maxListBytes?: number;
}
