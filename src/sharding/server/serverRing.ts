import type { Observable } from 'rxjs';
import type { Lease } from '../../coordination/lease.js';

/** @internal The member Leases of a server-side ring, as one member reads them. */
export interface ServerRing {
  /** Snapshots of the ring's member Leases (`synced`: the first list is in). */
  readonly snapshots$: Observable<Iterable<Lease> & { readonly synced: boolean }>;
  /** The member Leases as last seen. */
  readonly snapshot: Iterable<Lease>;
  /** Reads the ring's member Leases afresh (one value). */
  readonly list: () => Observable<readonly Lease[]>;
  /** Keeps the watch running while subscribed; errors when it fails for good. */
  readonly connected$: Observable<never>;
}
