/**
 * The configured `transform` threw for an object. The source reports it on `onStatus`, ends the
 * current list or watch, and backs off and relists, as client-go does when its transformer fails;
 * the store keeps what it had meanwhile.
 */
export class TransformError extends Error {
  override readonly name = 'TransformError';
  constructor(options: { cause: unknown }) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`[informer] transform threw: ${reason}`, options);
  }
}
