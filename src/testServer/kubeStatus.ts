/** One cause inside a {@link KubeStatus}'s `details`. @inline */
export interface StatusCause {
  /** Machine-readable cause, e.g. `FieldValueInvalid`. */
  readonly reason?: string;
  /** The failure, for people. */
  readonly message?: string;
  /** The field concerned, e.g. `metadata.name`. */
  readonly field?: string;
}

/**
 * `details` of a {@link KubeStatus}: which object the failure is about, and when to retry.
 *
 * @inline
 */
export interface StatusDetails {
  /** The name of the object the failure is about. */
  readonly name?: string;
  /** Its API group; absent for the core group. */
  readonly group?: string;
  /** Its resource, e.g. `configmaps` (the API server puts the resource here, despite the name). */
  readonly kind?: string;
  /** The individual failures, e.g. one per invalid field of a 422. */
  readonly causes?: readonly StatusCause[];
  /** Seconds the client should wait before it retries. */
  readonly retryAfterSeconds?: number;
}

/**
 * A `metav1.Status` as the API server sends it for failures: in the body of a non-2xx response,
 * or as the object of a watch `ERROR` event.
 *
 * @inline
 */
export interface KubeStatus {
  /** Always `Status`. */
  readonly kind: 'Status';
  /** Always `v1`. */
  readonly apiVersion: 'v1';
  /** Always empty. */
  readonly metadata: Record<string, never>;
  /** `Failure` for the failures this server sends. */
  readonly status: 'Failure' | 'Success';
  /** The failure, for people, worded as the real server words it. */
  readonly message: string;
  /** Machine-readable cause: `NotFound`, `AlreadyExists`, `Conflict`, `Invalid`, …. */
  readonly reason: string;
  /** Which object the failure is about, field causes, when to retry. */
  readonly details?: StatusDetails;
  /** The HTTP status code it goes with. */
  readonly code: number;
}

/**
 * Builds a failure {@link KubeStatus} with the field order the real server uses.
 *
 * @param code HTTP status code, e.g. 410.
 * @param reason `metav1.StatusReason`, e.g. `Expired`.
 * @param message Human-readable message, worded like the real server's.
 * @param details Optional details; omitted from the body when absent.
 */
export function kubeStatus(code: number, reason: string, message: string, details?: StatusDetails): KubeStatus {
  const base = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason } as const;
  return details === undefined ? { ...base, code } : { ...base, details, code };
}

/** The message of a 410 on an expired `continue` token, word for word as the real server says it. */
export const continueTooOldMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** 410 `Expired` "too old resource version: X (Y)": what a watch from a compacted RV gets in-stream. */
export function tooOldResourceVersion(requested: string, oldest: string): KubeStatus {
  return kubeStatus(410, 'Expired', `too old resource version: ${requested} (${oldest})`);
}

/** 504 `Timeout` "Too large resource version", as the real server answers an RV from the future. */
export function tooLargeResourceVersion(requested: string, current: string): KubeStatus {
  return kubeStatus(504, 'Timeout', `Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}

/** 400 `BadRequest` with the given message. */
export function badRequest(message: string): KubeStatus {
  return kubeStatus(400, 'BadRequest', message);
}

/** The body of a 404 for a path the server does not serve. */
export function pathNotFound(): KubeStatus {
  return kubeStatus(404, 'NotFound', 'the server could not find the requested resource', {});
}
