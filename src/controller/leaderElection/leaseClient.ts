import type { Observable } from 'rxjs';
import type { Lease, LeaseRef } from './lease.js';

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
