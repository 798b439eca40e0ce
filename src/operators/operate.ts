import { Observable, type OperatorFunction, type Subscriber } from 'rxjs';

/**
 * @internal What an operator does with its source, per subscription (see {@link operate}).
 */
export interface OperatorBody<In> {
  /** Handles a value of the source. A throw errors the output instead of escaping into the source. */
  next(value: In): void;
  /**
   * Handles the source's completion and is then responsible for completing the output (an operator
   * that drains first completes later). Without it the output completes at once. A throw errors it.
   */
  complete?(): void;
  /** Runs after the source is unsubscribed, however the subscription ended: drop buffers, stop timers. */
  finalize?(): void;
}

/**
 * @internal The one shape of every hand-written operator in this package (RxJS keeps the same in
 * `operate` + `createOperatorSubscriber`): per-subscription state lives in `init`'s closure; the
 * source's values go to `next`, with a throw turned into an error notification (style point 22);
 * errors pass through; completion goes through `complete`; teardown unsubscribes the source and
 * runs `finalize`.
 *
 * @param init called once per subscription with the output's subscriber; returns the body.
 */
export function operate<In, Out>(init: (subscriber: Subscriber<Out>) => OperatorBody<In>): OperatorFunction<In, Out> {
  return (source) =>
    new Observable<Out>((subscriber) => {
      const body = init(subscriber);
      const { complete } = body;
      const subscription = source.subscribe({
        next: (value) => {
          try {
            body.next(value);
          } catch (error) {
            subscriber.error(error);
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete:
          complete === undefined
            ? () => subscriber.complete()
            : () => {
                try {
                  complete.call(body);
                } catch (error) {
                  subscriber.error(error);
                }
              },
      });
      return () => {
        subscription.unsubscribe();
        body.finalize?.();
      };
    });
}
