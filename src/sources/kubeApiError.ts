/** The parts of a `metav1.Status` the informer reads. */
export interface KubeStatus {
  readonly kind?: string;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly code?: number;
  readonly details?: {
    readonly retryAfterSeconds?: number;
    readonly causes?: ReadonlyArray<{ readonly reason?: string; readonly message?: string; readonly field?: string }>;
    readonly [field: string]: unknown;
  };
  readonly [field: string]: unknown;
}

/** What {@link KubeApiError} is built from. */
export interface KubeApiErrorInit {
  /** `list` or `watch`. */
  readonly verb: string;
  /** The plural resource, e.g. `configmaps` or `widgets.example.com`. */
  readonly resource: string;
  /** Absent for all namespaces / cluster-scoped resources. */
  readonly namespace?: string | undefined;
  /** HTTP status, or the `code` of a watch `ERROR` event. */
  readonly code: number;
  /** The `Status` body, when the server sent one. */
  readonly status?: KubeStatus | undefined;
  /** From `Retry-After` or `Status.details.retryAfterSeconds`. */
  readonly retryAfterSeconds?: number | undefined;
}

const reasonText: Record<number, string> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not found',
  410: 'expired',
  429: 'too many requests',
  500: 'internal error',
  503: 'service unavailable',
  504: 'timeout',
};

/**
 * The API server refused a LIST or WATCH (an HTTP error status) or ended a watch with an `ERROR`
 * event. The message names the verb, the resource and the namespace:
 * `[informer] cannot watch configmaps in namespace x: forbidden (…server message…)`.
 */
export class KubeApiError extends Error {
  override readonly name = 'KubeApiError';
  readonly verb: string;
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly code: number;
  /** `Status.reason` (`Expired`, `Gone`, `Forbidden`, `TooManyRequests`, …) or `undefined`. */
  readonly reason: string | undefined;
  readonly status: KubeStatus | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(init: KubeApiErrorInit, options?: { cause?: unknown }) {
    const where = init.namespace ? ` in namespace ${init.namespace}` : '';
    const text = reasonText[init.code] ?? `HTTP ${init.code}`;
    const detail = init.status?.message ? ` (${init.status.message})` : '';
    super(`[informer] cannot ${init.verb} ${init.resource}${where}: ${text}${detail}`, options);
    this.verb = init.verb;
    this.resource = init.resource;
    this.namespace = init.namespace;
    this.code = init.code;
    this.reason = typeof init.status?.reason === 'string' && init.status.reason !== '' ? init.status.reason : undefined;
    this.status = init.status;
    this.retryAfterSeconds = init.retryAfterSeconds ?? init.status?.details?.retryAfterSeconds;
  }
}
