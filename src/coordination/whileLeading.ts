import { Observable, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';
import type { Leadership } from './electionState.js';

/**
 * Runs the source only while this candidate leads.
 *
 * <span class="informal">Subscribes to the source when `leading` arrives and unsubscribes from it
 * when `following` does — the moment the term ends, before any other candidate can take the lease
 * over — and again on the next `leading`.</span>
 *
 * ```text
 * leadership:  --L--------F-----L-------|
 * source:        ^--a--b--!     ^--a--
 * whileLeading(leadership)
 * output:      -----a--b-----------a----|
 * ```
 *
 * - Unsubscribing the source is how leader-scoped work stops: a controller's running reconciles see
 *   their `AbortSignal` fire, and nothing new starts. Promises that ignore the signal run on: see
 *   the guarantees in {@link leaderElection}.
 * - The output ends when the leadership does (error or completion), or when the source errors or
 *   completes while leading. A source that shuts down gracefully (a controller's `shutdownOn`) and
 *   then completes is the way to release a lease only after the work has stopped: the output
 *   completes, which unsubscribes the leadership, which releases with `releaseOnCancel`.
 * - On unsubscribe, the source is unsubscribed before the leadership.
 *
 * ## Example
 * ```ts
 * import { interval } from 'rxjs';
 * import { leaderElection, leaseClient, whileLeading } from 'rx-informer/controller';
 * import type { KubeConfig } from '@kubernetes/client-node';
 * declare const kubeConfig: KubeConfig; // assuming: loaded from the default location
 *
 * const election = leaderElection({ leases: leaseClient(kubeConfig), lease: { namespace: 'demo', name: 'reports' } });
 * interval(60_000).pipe(whileLeading(election)).subscribe(() => console.log('only the leader reports'));
 * ```
 *
 * @param leadership$ from {@link leaderElection} (any Observable of {@link Leadership} will do).
 * @returns an operator that gates the source on leadership.
 */
export function whileLeading<T>(leadership$: Observable<Leadership>): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      let work: Subscription | undefined;
      const stopWork = (): void => {
        const running = work;
        work = undefined;
        running?.unsubscribe();
      };
      const leadership = leadership$.subscribe({
        next: (value) => {
          if (value.state !== 'leading') return stopWork();
          if (work !== undefined) return;
          work = source.subscribe({
            next: (item) => subscriber.next(item),
            error: (error: unknown) => subscriber.error(error),
            complete: () => subscriber.complete(),
          });
        },
        error: (error: unknown) => {
          stopWork();
          subscriber.error(error);
        },
        complete: () => {
          stopWork();
          subscriber.complete();
        },
      });
      return () => {
        stopWork();
        leadership.unsubscribe();
      };
    });
}
