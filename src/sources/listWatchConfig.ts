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
   * Ask for `PartialObjectMetadata` (metadata only: no spec, no status) on list and watch, through
   * the `Accept` header. Objects then have `kind: PartialObjectMetadata`, `apiVersion: meta.k8s.io/v1`.
   */
  readonly metadataOnly?: boolean;
  /** Longest watch event line accepted, in bytes. Default 16 MiB. Longer → {@link TransportError} (`lineTooLong`), relist. */
  readonly maxLineBytes?: number;
}
