import { ignoreElements, merge, type Observable } from 'rxjs';

/**
 * @internal Keeps informers running for as long as it is subscribed, and errors when one of them
 * fails for good. The controller holds its informers through this one function only, so that how
 * an informer is held (today: a subscription to its shared updates) changes in one place.
 */
export function keepConnected(informers: readonly { readonly updates$: Observable<unknown> }[]): Observable<never> {
  return merge(...informers.map((informer) => informer.updates$.pipe(ignoreElements())));
}
