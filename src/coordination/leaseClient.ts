import type { KubeConfigLike } from '../client/kubeConfigLike.js';
import { Observable } from 'rxjs';
import { resourceClient, type RequestOptions, type ResourceClient } from '../client/resourceClient.js';
import { leaseType, type Lease, type LeaseRef } from './lease.js';

/**
 * The Lease I/O leader election needs, as cold Observables (one value, then complete; unsubscribing
 * cancels the request). {@link leaseClient} implements it over the toolkit's resource client; tests
 * pass a fake.
 *
 * A lost race is a {@link ControllerError} with reason `conflict` (the API server's 409): `create`
 * of a lease that exists, `update` of a lease whose resourceVersion moved on.
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
 * A {@link LeaseClient} over the library's HTTP layer: a {@link resourceClient} of the KubeConfig
 * (credentials and TLS as the informers use them, keep-alive connections, a 401 retried once), or
 * the one given.
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
 * @param client a KubeConfig, or a resource client to share.
 * @returns the Lease client.
 * @throws {TypeError} unless `client` is a KubeConfig or a resource client.
 */
export function leaseClient(client: KubeConfigLike | ResourceClient): LeaseClient {
  const resources = isResourceClient(client) ? client : resourceClient(client);
  return {
    get: (ref) => fromRequest((options) => resources.get<Lease>({ ...leaseType, namespace: ref.namespace, name: ref.name }, options)),
    create: (lease) => fromRequest((options) => resources.create<Lease>(lease, options)),
    update: (lease) => fromRequest((options) => resources.replace<Lease>(lease, options)),
  };
}

/** @internal A cold Observable of one request: sent on subscribe, aborted on unsubscribe. */
export function fromRequest<T>(send: (options: RequestOptions) => Promise<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const abort = new AbortController();
    send({ signal: abort.signal }).then(
      (value) => {
        subscriber.next(value);
        subscriber.complete();
      },
      (error: unknown) => abort.signal.aborted || subscriber.error(error),
    );
    return () => abort.abort();
  });
}

function isResourceClient(value: unknown): value is ResourceClient {
  const candidate = value as Partial<ResourceClient> | null;
  return candidate !== null && typeof candidate === 'object' && typeof candidate.replace === 'function' && typeof candidate.patch === 'function';
}
