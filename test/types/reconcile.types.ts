/**
 * Type-level tests of reconcile handlers (issue 12 item 13): a handler that ends with an API call
 * and returns its Promise type-checks; a result that would be misread does not.
 */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { EMPTY, of } from 'rxjs';
import { reconcile, type ReconcileHandler } from '../../src/index.js';

const api = new KubeConfig().makeApiClient(CoreV1Api);
const namespaceAndName = (key: string) => {
  const [namespace = '', name = ''] = key.split('/');
  return { namespace, name };
};

// The natural handler: call the API, return what it resolves to (a V1ConfigMap).
reconcile((key) => api.readNamespacedConfigMap(namespaceAndName(key)));
reconcile(async (key, { signal }) => {
  signal.throwIfAborted();
  return api.replaceNamespacedConfigMap({ ...namespaceAndName(key), body: { data: { seen: key } } });
});
// Nothing, a request to run again, either from a Promise or an Observable.
reconcile(() => undefined);
reconcile(async () => {});
reconcile(() => ({ requeueAfterMs: 30_000 }));
reconcile(async (key) => (key.startsWith('kube-system/') ? undefined : { requeueAfterMs: 1_000 }));
reconcile(() => of({ requeueAfterMs: 5 }));
reconcile(() => EMPTY);
reconcile(() => null);
const named: ReconcileHandler = (key) => api.readNamespacedConfigMap(namespaceAndName(key));
reconcile(named);

// @ts-expect-error requeueAfterMs is a number of milliseconds
reconcile(() => ({ requeueAfterMs: '5s' }));
// @ts-expect-error controller-runtime's `requeueAfter` is spelt `requeueAfterMs` here; it would be ignored
reconcile(async () => ({ requeueAfter: 5_000 }));
// @ts-expect-error controller-runtime's `requeue: true` has no meaning here; return { requeueAfterMs }
reconcile(() => of({ requeue: true }));
// @ts-expect-error a number is not a result
reconcile(() => 5);

// A requeue at a priority (controller-runtime's Result.Priority); the reasons of the run.
reconcile(() => ({ requeueAfterMs: 0, priority: 10 }));
reconcile((_key, { reasons }) => (reasons.some((r) => r.type === 'changed' && r.resourceVersion !== undefined) ? undefined : { requeueAfterMs: 1 }));
// @ts-expect-error a priority is a number
reconcile(() => ({ requeueAfterMs: 0, priority: 'high' }));
// Requests carry a priority and reasons; a reason of an unknown type is refused.
of({ key: 'a', priority: -100, reasons: [{ type: 'initial' as const }] }).pipe(reconcile(() => undefined));
// @ts-expect-error no such reason
of({ key: 'a', reasons: [{ type: 'because' as const }] }).pipe(reconcile(() => undefined));
