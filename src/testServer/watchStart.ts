import type { ListOptions } from './listOptions.js';

/**
 * Where a watch starts, as the real server decides it from the request and its change log:
 * - `wait`: the resourceVersion is newer than the server's; wait a little for it, then decide again;
 * - `tooLarge`: it is still newer after the wait — an ERROR (504, "Too large resource version") in
 *   the stream;
 * - `initialEvents`: a streaming list — the current objects as ADDED, the initial-events-end
 *   bookmark, then live changes;
 * - `current`: no resourceVersion, `""` or `"0"` — the current objects as ADDED (unless the client
 *   declined initial events), then live changes;
 * - `tooOld`: the resourceVersion is older than the change log keeps — an ERROR 410 in the stream;
 * - `replay`: the changes after `from` from the log, then live changes.
 *
 * @internal
 */
export type WatchStart =
  | { readonly type: 'wait' }
  | { readonly type: 'tooLarge' }
  | { readonly type: 'initialEvents' }
  | { readonly type: 'current'; readonly sendCurrent: boolean }
  | { readonly type: 'tooOld' }
  | { readonly type: 'replay'; readonly from: number };

/**
 * Decides the {@link WatchStart} of a watch with `options` on a server at `currentRV` whose change
 * log begins after `floor`. Pure. `waited`: the wait for a newer resourceVersion is over. @internal
 */
export function watchStart(options: Pick<ListOptions, 'resourceVersion' | 'sendInitialEvents' | 'initialEventsDeclined'>, currentRV: number, floor: number, waited = false): WatchStart {
  const rv = options.resourceVersion;
  const given = rv !== undefined && rv !== '' && rv !== '0';
  if (given && Number(rv) > currentRV) return waited ? { type: 'tooLarge' } : { type: 'wait' };
  if (options.sendInitialEvents) return { type: 'initialEvents' };
  if (!given) return { type: 'current', sendCurrent: !options.initialEventsDeclined };
  const from = Number(rv);
  return from < floor ? { type: 'tooOld' } : { type: 'replay', from };
}
