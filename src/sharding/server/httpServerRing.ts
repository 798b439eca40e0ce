import { map } from 'rxjs';
import { informer } from '../../informer/informer.js';
import { httpListerWatcher } from '../../sources/http/httpListerWatcher.js';
import { listWatch } from '../../sources/listWatch.js';
import { wholeListResponse } from '../../sources/wholeListResponse.js';
import { keepConnected } from '../../controller/keepConnected.js';
import type { Lease } from '../../coordination/lease.js';
import { ringLabel } from '../ringLabel.js';
import type { ResolvedShardingConfig } from '../shardingConfig.js';
import type { ServerRing } from './serverRing.js';

const leases = { group: 'coordination.k8s.io', version: 'v1', plural: 'leases' } as const;

/** @internal The ring's member Leases on the API server: an informer of them, and a fresh LIST. */
export function httpServerRing(c: ResolvedShardingConfig): ServerRing {
  const resource = { ...leases, namespace: c.namespace };
  const options = { labelSelector: `${ringLabel}=${c.ring}` };
  const members = informer(listWatch<Lease>(c.kubeConfig, resource, options));
  const lister = httpListerWatcher<Lease>(c.kubeConfig, resource, options);
  return {
    snapshots$: members.snapshots$,
    get snapshot() {
      return members.snapshot;
    },
    list: () => lister.list({}).pipe(wholeListResponse(), map((list) => list.items)),
    connected$: keepConnected([members]),
  };
}
