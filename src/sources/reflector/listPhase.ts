import type { ListRequest, ListResponse } from '../listerWatcher.js';
import { TransportError } from '../../errors.js';
import { isExpired, isTooLargeResourceVersion } from './classifyError.js';
import type { ReflectorRuntime } from './reflectorRuntime.js';

/** R1/R2: a LIST cycle at `relistResourceVersion()`, paging as client-go decides. */
export function listPhase<T>(rt: ReflectorRuntime<T>): void {
  const first = rt.config.listSemantic === 'mostRecent' ? '' : '0';
  const rv = rt.rvUnavailable ? '' : rt.lastSyncRV === '' ? first : rt.lastSyncRV;
  const paged = rt.config.pageSize !== undefined || rt.paginatedResult || rv === '' || rv === '0';
  listFrom(rt, paged ? { resourceVersion: rv, limit: rt.pageSize } : { resourceVersion: rv }, false);
}

/** One list attempt: `LIST_START`, a page per request following `continue`, `LIST_DONE`, then the watch. */
function listFrom<T>(rt: ReflectorRuntime<T>, first: ListRequest, isFullRetry: boolean): void {
  const rv = first.resourceVersion ?? '';
  const transform = rt.config.transform;
  let page = 0;
  let itemsSoFar = 0;
  let listRV = '';
  rt.emit({ type: 'LIST_START' });
  rt.status({ type: 'LISTING', resourceVersion: rv, streaming: false, page, itemsSoFar });

  const fetchPage = (req: ListRequest): void => {
    let response: ListResponse<T> | undefined;
    rt.start(
      rt.listerWatcher.list(req),
      {
        next: (value) => {
          response = value;
        },
        error: (error: unknown) => failed(error, req.continue !== undefined),
        complete: () => {
          if (!response) {
            failed(new TransportError('list', 'the response ended without a list'), false);
            return;
          }
          page++;
          itemsSoFar += response.items.length;
          if (page === 1) listRV = response.resourceVersion; // R4: the first page's RV
          const items = transform ? response.items.map(rt.transform) : response.items;
          const remaining = response.remainingItemCount;
          const progress = remaining === undefined ? { page, itemsSoFar } : { page, itemsSoFar, remainingItemCount: remaining };
          rt.emit({ type: 'LIST_PAGE', items, ...progress });
          rt.status({ type: 'LISTING', resourceVersion: rv, streaming: false, ...progress });
          if (response.continue) {
            // R1: continue pages carry no resourceVersion.
            fetchPage(req.limit === undefined ? { continue: response.continue } : { limit: req.limit, continue: response.continue });
          } else {
            done();
          }
        },
      },
      'list',
    );
  };

  const done = (): void => {
    if (rv === '0' && page > 1) rt.paginatedResult = true;
    rt.rvUnavailable = false;
    rt.lastSyncRV = listRV;
    rt.emit({ type: 'LIST_DONE', resourceVersion: listRV });
    rt.watch(false);
  };

  const failed = (error: unknown, onContinuePage: boolean): void => {
    if (onContinuePage && !isFullRetry && isExpired(error)) {
      // R3: the continue token expired: one full, unpaginated list at the original RV.
      rt.relistNow('expiredContinue', error, () => listFrom(rt, { resourceVersion: rv }, true));
      return;
    }
    const expired = isExpired(error);
    if ((expired || isTooLargeResourceVersion(error)) && rv !== '') {
      // R3: the RV is unavailable: relist at once with RV "" (a quorum read), no backoff.
      rt.rvUnavailable = true;
      rt.relistNow(expired ? 'expired' : 'tooLargeResourceVersion', error, rt.list);
      return;
    }
    rt.cycleFailed(error, 'listError');
  };

  fetchPage(first);
}
