import type { Observable } from 'rxjs';
import type { ListWatchStatus } from '../sources/reflector/listWatchStatus.js';

/** @internal The status an informer's `status$` replays now (undefined before the first), read without staying subscribed. */
export function currentStatus(informer: { readonly status$: Observable<ListWatchStatus> }): ListWatchStatus | undefined {
  let last: ListWatchStatus | undefined;
  informer.status$.subscribe((status) => (last = status)).unsubscribe();
  return last;
}
