import { Observable } from 'rxjs';
import type { Informer } from '../informer/informer.js';
import type { KubeObject } from '../store/kubeObject.js';
import { currentStatus } from './currentStatus.js';

/**
 * @internal Holds informers running through their `connect()` for as long as it is subscribed, and
 * errors with the source's error when one of them fails for good (its connection ends on a
 * `FAILED` status). A connection that ends because its source completed is not an error.
 */
export function keepConnected(informers: readonly Pick<Informer<KubeObject>, 'connect' | 'status$'>[]): Observable<never> {
  return new Observable<never>((subscriber) => {
    let leaving = false;
    const connections = informers.map((informer) => {
      const connection = informer.connect();
      connection.add(() => {
        if (leaving) return;
        const last = currentStatus(informer);
        if (last?.type === 'FAILED') subscriber.error(last.error);
      });
      return connection;
    });
    return () => {
      leaving = true;
      for (const connection of connections) connection.unsubscribe();
    };
  });
}
