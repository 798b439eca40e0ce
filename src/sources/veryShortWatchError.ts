/**
 * A watch closed in under a second without delivering a single event (client-go's
 * `VeryShortWatchError`): most likely a server or proxy problem, so the source backs off and relists.
 */
export class VeryShortWatchError extends Error {
  override readonly name = 'VeryShortWatchError';
  constructor(durationMs: number) {
    super(`[informer] very short watch: closed after ${durationMs} ms with no events`);
  }
}
