import type { KubeConfig } from '@kubernetes/client-node';
import type { Observable } from 'rxjs';
import { checkKubeConfig, createRequestContext } from '../../sources/http/requestContext.js';
import type { Lease, LeaseRef } from './lease.js';
import { stopgapRequest } from './stopgapRequest.js';

/**
 * The Lease I/O leader election needs, as cold Observables (one value, then complete; unsubscribing
 * cancels the request). {@link leaseClient} implements it over HTTP; tests pass a fake.
 *
 * A lost race is an error with `code: 409` (a {@link KubeApiError}, as the API server says it):
 * `create` of a lease that exists, `update` of a lease whose resourceVersion moved on.
 */
export interface LeaseClient {
  /** The lease, or `undefined` when there is none (404). */
  get(ref: LeaseRef): Observable<Lease | undefined>;
  /** POST; the namespace and name come from the lease. */
  create(lease: Lease): Observable<Lease>;
  /** PUT of the whole lease; its `metadata.resourceVersion` is the precondition. */
  update(lease: Lease): Observable<Lease>;
}

/**
 * A {@link LeaseClient} over a KubeConfig (its current context), through the library's HTTP layer:
 * credentials and TLS as the informers use them, keep-alive connections.
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { leaseClient } from 'rx-informer/controller';
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * leaseClient(kubeConfig).get({ namespace: 'kube-system', name: 'kube-scheduler' }).subscribe((lease) => console.log(lease?.spec?.holderIdentity));
 * ```
 *
 * @param kubeConfig client-node's KubeConfig.
 * @returns the client.
 * @throws {TypeError} unless `kubeConfig` is a KubeConfig.
 */
export function leaseClient(kubeConfig: KubeConfig): LeaseClient {
  checkKubeConfig(kubeConfig);
  const context = createRequestContext(kubeConfig);
  const path = (namespace: string, name?: string): string => `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
  const send = (verb: string, method: 'GET' | 'POST' | 'PUT', namespace: string, name: string | undefined, body?: Lease): Observable<Lease | undefined> =>
    stopgapRequest(context, { method, path: path(namespace, name), body, verb, resource: 'leases', namespace }) as Observable<Lease | undefined>;
  const where = (lease: Lease): { namespace: string; name: string } => {
    const { namespace, name } = lease.metadata ?? {};
    if (!namespace || !name) throw new TypeError('[informer] leaseClient: a lease needs metadata.namespace and metadata.name');
    return { namespace, name };
  };
  return {
    get: (ref) => send('get', 'GET', ref.namespace, ref.name),
    create: (lease) => send('create', 'POST', where(lease).namespace, undefined, lease) as Observable<Lease>,
    update: (lease) => send('update', 'PUT', where(lease).namespace, where(lease).name, lease) as Observable<Lease>,
  };
}
