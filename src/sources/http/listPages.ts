import { finalize, Observable, ReplaySubject, Subscription } from 'rxjs';
import type { ResolvedResource } from '../../client/resolveResource.js';
import type { ListRequest, ListResponse } from '../listerWatcher.js';
import { listPath, type RequestShape } from './listWatchRequests.js';

/** GETs one LIST page at `path`; `peekHead`, when given, gets the page's head as soon as it has arrived. */
export type GetPage<T> = (target: ResolvedResource, path: string, peekHead?: (head: unknown) => void) => Observable<ListResponse<T>>;

/**
 * The LIST side of a ListerWatcher: one page per call, with the next page prefetched.
 *
 * Paging is serial (each page names the next), so the server used to sit idle while a page was
 * received and parsed, and the client while the next one was built. Now, as soon as a page's head
 * shows its continue token, the next page is requested (and it, in turn, requests the one after
 * it); the reflector's next list() call, always for exactly that page, adopts the request in
 * flight. A prefetch not adopted when the page that started it is torn down (an error, a relist,
 * unsubscribing) is aborted, with any prefetch it started.
 */
export function listPages<T>(getPage: GetPage<T>, shape: RequestShape): (target: ResolvedResource, request: ListRequest) => Observable<ListResponse<T>> {
  interface Pending {
    /** Every part of the page (a large page comes in parts) until the reflector adopts it. */
    readonly response: ReplaySubject<ListResponse<T>>;
    request: Subscription;
    /** The path of the page this one's head prefetched, if any. */
    next?: string;
  }
  const prefetched = new Map<string, Pending>();
  const dropNext = (owner: { next?: string }): void => {
    const path = owner.next;
    const left = path === undefined ? undefined : prefetched.get(path);
    if (left === undefined) return;
    prefetched.delete(path!);
    left.request.unsubscribe();
    dropNext(left);
  };
  // A page's request is torn down as it completes, before the reflector (in the same call stack,
  // once the surrounding switchMap completes) asks for the next page: decide a microtask later.
  const dropNextLater = (owner: { next?: string }): void => {
    if (owner.next !== undefined) queueMicrotask(() => dropNext(owner));
  };
  const fetchPage = (target: ResolvedResource, path: string, limit: number | undefined, owner: { next?: string }): Observable<ListResponse<T>> =>
    getPage(
      target,
      path,
      limit === undefined
        ? undefined
        : (head) => {
            const token = (head as { metadata?: { continue?: unknown } } | null)?.metadata?.continue;
            if (typeof token !== 'string' || token === '') return;
            const next = listPath(target, shape, { limit, continue: token });
            if (prefetched.has(next)) return;
            owner.next = next;
            const pending: Pending = { response: new ReplaySubject<ListResponse<T>>(), request: Subscription.EMPTY };
            prefetched.set(next, pending);
            pending.request = fetchPage(target, next, limit, pending).subscribe(pending.response);
          },
    );

  return (target, request) => {
    const path = listPath(target, shape, request);
    const ready = prefetched.get(path);
    if (ready !== undefined) {
      prefetched.delete(path);
      return new Observable<ListResponse<T>>((subscriber) => {
        const inner = ready.response.subscribe(subscriber);
        return () => {
          inner.unsubscribe();
          ready.request.unsubscribe();
          dropNextLater(ready);
        };
      });
    }
    const owner: { next?: string } = {};
    return fetchPage(target, path, request.limit, owner).pipe(finalize(() => dropNextLater(owner)));
  };
}
