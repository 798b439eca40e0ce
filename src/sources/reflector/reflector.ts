/** The public `reflector()`: client-go's Reflector as a cold Observable over a {@link ListerWatcher}. */
import { Observable } from 'rxjs';
import type { KubeObject } from '../../store/kubeObject.js';
import type { ListerWatcher } from '../listerWatcher.js';
import type { RawEvent } from '../rawEvent.js';
import { resolveReflectorConfig, type ReflectorConfig } from './reflectorConfig.js';
import { runReflector } from './reflectorRuntime.js';

/**
 * The client-go Reflector as a cold Observable over a {@link ListerWatcher}: list (paginated), then
 * watch from the list's resourceVersion, forever, following rules R1–R11 of the design.
 *
 * Every list attempt starts with `LIST_START` (also the retry after a 410, and a streaming list), so
 * downstream drops what it buffered. Transient faults never end the stream: they are reported on
 * `onStatus` and retried with backoff. Unsubscribing (or aborting `signal`) aborts the in-flight
 * request and clears every timer.
 *
 * ```text
 * list:   --p1--p2|                       (pages; 410 on a continue page → one full list)
 * watch:           -O-a--b--|  -O-c--     (clean close → re-watch from the last RV, no relist)
 * result: S-P---P-D---a--b-------c--      (S LIST_START, P LIST_PAGE, D LIST_DONE)
 * ```
 *
 * ## Example
 * ```ts
 * import { reflector, type KubeObject, type ListerWatcher } from 'rx-informer';
 * declare const myListerWatcher: ListerWatcher<KubeObject>; // assuming: your ListerWatcher (httpListerWatcher(…) is one)
 *
 * reflector(myListerWatcher, { onStatus: (s) => console.log(s.type) }).subscribe((e) => console.log(e.type));
 * // Logs: LISTING, LIST_START, LIST_PAGE, LISTING, LIST_DONE, WATCHING, ADDED, …
 * ```
 *
 * @param listerWatcher The I/O seam: one list page, one watch.
 * @param config Page size, streaming list, transform, backoff, watchdog, status callback, scheduler,
 * signal; checked now (a `TypeError` for a bad value).
 * @returns A cold Observable of {@link RawEvent}s (statuses in band) that errors only on an
 * `onStatus` throw, on an invalid request (400/422) or, with `fatalErrors: 'permanent'`, on
 * 403/404, each time after a `FAILED` status; it completes when `signal` aborts.
 * @see {@link listWatch} for the HTTP version.
 */
export function reflector<T = KubeObject>(
  listerWatcher: ListerWatcher<T>,
  config: ReflectorConfig<T> = {},
): Observable<RawEvent<T>> {
  const resolved = resolveReflectorConfig(config);
  return new Observable<RawEvent<T>>((subscriber) => runReflector(listerWatcher, resolved, subscriber));
}
