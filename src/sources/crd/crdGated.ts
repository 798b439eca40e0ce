import { asyncScheduler, Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { KubeApiError } from '../../errors.js';
import type { RawEvent } from '../rawEvent.js';
import { resourceVersionOf } from '../../store/resourceVersionOf.js';
import { crdGateStep, initialCrdGate, type CrdGateEffect, type CrdGateInput, type CrdGateState, type CrdGateTarget } from './crdGateStep.js';

/**
 * @internal A List+Watch source that follows its resource's CustomResourceDefinition: it makes no
 * request while the CRD does not serve the resource, tells why on `STATUS` events (`CRD_MISSING`,
 * `CRD_REMOVED`, `CRD_VERSION_NOT_SERVED`, `CRD_ESTABLISHED`), opens the source when it does, closes
 * it when it stops doing so and, when the CRD is deleted, empties the cache with a relist of nothing
 * (the objects went with it). {@link crdGateStep} decides; this only performs.
 *
 * ```text
 * crd$:    ─n────────r──────────────g──────────r─────     n not found, r ready, g gone
 * result:  ─M────────E─(source…)────R(S D)─────E─(source…)    M/E/R statuses, S D: LIST_START LIST_DONE
 * ```
 *
 * @param crd$ the CRD as the shared CRD watch sees it (hot; every subscription of the result subscribes once).
 * @param target how to name the CRD before it is found, and the version read.
 * A source opened for a CRD just established that is answered 404 before its first list (the
 * apiserver's handler may lag its own CRD watch by a moment) is opened again after
 * {@link reopenDelaysMs} rather than left to the reflector, which waits its slow backoff (30 s) after
 * a 404.
 *
 * @param open a fresh source under the CRD's plural (`undefined`: the resource as asked).
 * @param scheduler the clock of the reopen delays.
 */
export function crdGated<T>(
  crd$: Observable<CrdGateInput>,
  target: CrdGateTarget,
  open: (plural: string | undefined) => Observable<RawEvent<T>>,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<RawEvent<T>> {
  return new Observable<RawEvent<T>>((subscriber) => {
    let state: CrdGateState = initialCrdGate;
    let inner: Subscription | undefined;
    let reopen: Subscription | undefined;
    // Between a start and its first list: a 404 then is the apiserver catching up with the CRD.
    let opening = false;
    let reopens = 0;
    let plural: string | undefined;
    // Whether the cache may hold objects (a list completed since the source opened), and the newest RV seen.
    let listed = false;
    let resourceVersion = '';
    const perform = (effect: CrdGateEffect): void => {
      switch (effect.type) {
        case 'status':
          return subscriber.next({ type: 'STATUS', status: effect.status });
        case 'stop':
          inner?.unsubscribe();
          reopen?.unsubscribe();
          inner = reopen = undefined;
          return;
        case 'empty':
          if (!listed) return;
          subscriber.next({ type: 'LIST_START' });
          subscriber.next({ type: 'LIST_DONE', resourceVersion });
          return;
        case 'start':
          plural = effect.plural;
          opening = true;
          reopens = 0;
          return subscribeInner();
      }
    };
    const subscribeInner = (): void => {
      let dropped = false;
      let sub: Subscription | undefined;
      sub = open(plural).subscribe({
        next: (event) => {
          if (dropped) return;
          if (event.type === 'LIST_DONE' || event.type === 'BOOKMARK') {
            listed ||= event.type === 'LIST_DONE';
            opening &&= event.type !== 'LIST_DONE';
            resourceVersion = event.resourceVersion;
          } else if (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED') {
            resourceVersion = resourceVersionOf(event.object) ?? resourceVersion;
          }
          subscriber.next(event);
          if (opening && event.type === 'STATUS' && event.status.type === 'ERROR' && isNotFound(event.status.error) && reopens < reopenDelaysMs.length) {
            dropped = true;
            sub?.unsubscribe();
            inner = undefined;
            reopen = scheduler.schedule(() => {
              reopen = undefined;
              subscribeInner();
            }, reopenDelaysMs[reopens++]);
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      if (dropped) sub.unsubscribe();
      else inner = sub;
    };
    const inputs = crd$.subscribe({
      next: (input) => {
        const step = crdGateStep(state, input, target);
        state = step.state;
        for (const effect of step.effects) perform(effect);
      },
      error: (error: unknown) => subscriber.error(error),
    });
    return () => {
      inputs.unsubscribe();
      inner?.unsubscribe();
      reopen?.unsubscribe();
    };
  });
}

/** How long after a 404 a source just opened for an established CRD is opened again, attempt by attempt (then the reflector's own backoff applies). */
export const reopenDelaysMs: readonly number[] = [100, 200, 400, 800];

const isNotFound = (error: Error): boolean => error instanceof KubeApiError && error.code === 404;
