/** No byte arrived on a LIST or WATCH for longer than `idleTimeout`; the request was aborted and retried. */
export class WatchStalledError extends Error {
  override readonly name = 'WatchStalledError';
  readonly idleMs: number;
  constructor(verb: string, idleMs: number) {
    super(`[informer] ${verb} stalled: no data for ${idleMs} ms`);
    this.idleMs = idleMs;
  }
}
