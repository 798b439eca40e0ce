/**
 * A LIST or WATCH failed below HTTP: connection refused, reset, DNS, TLS, or the request was
 * aborted by the idle watchdog. `code` is Node's error code (`ECONNREFUSED`, `ECONNRESET`, …).
 */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly code: string | undefined;
  readonly verb: string;

  constructor(verb: string, message: string, options?: { cause?: unknown; code?: string | undefined }) {
    super(`[informer] ${verb} failed: ${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.verb = verb;
    this.code = options?.code;
  }
}
