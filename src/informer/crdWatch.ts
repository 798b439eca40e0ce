import type { KubeConfigLike } from '../client/kubeConfigLike.js';
import { catchError, filter, map, merge, of, type Observable } from 'rxjs';
import { KubeApiError } from '../errors.js';
import { crdAvailability, type CrdObject } from '../sources/crd/crdAvailability.js';
import type { CrdGateInput } from '../sources/crd/crdGateStep.js';
import type { CrdTarget } from '../sources/crd/crdTarget.js';
import { servedWithoutCrd, unlessServedWithoutCrd } from '../sources/crd/followCrd.js';
import { createHttpListerWatcher } from '../sources/http/httpListerWatcher.js';
import type { ListWatchConfig } from '../sources/listWatchConfig.js';
import { reflector } from '../sources/reflector/reflector.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Snapshot } from '../store/snapshot.js';
import { informer } from './informer.js';

/** @internal One factory's watch of CustomResourceDefinitions, and what it says to each gated informer. */
export interface CrdWatch {
  /** The CRD of `target` each time the watch's snapshot changes (once synced); or that the watch is refused. */
  inputs(target: CrdTarget): Observable<CrdGateInput>;
}

type Crd = CrdObject & KubeObject;
const byGroupKind = (crd: Crd): string[] => [`${crd.spec?.group ?? ''}/${crd.spec?.names?.kind ?? ''}`];

/**
 * @internal The watch of CustomResourceDefinitions a factory shares among all its informers of
 * custom resources. It runs while one of them runs (each holds it through `snapshots$`). A watch
 * refused with 403 (no right to list CRDs) makes the gates step aside: those informers then run as
 * if there were no gate, as before; so does a resource that has no CRD but is served all the same
 * (an aggregated API's, asked of discovery once).
 */
export function crdWatch(kubeConfig: KubeConfigLike, config: Pick<ListWatchConfig<Crd>, 'scheduler' | 'backoff' | 'signal'>): CrdWatch {
  const resource = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' };
  const crds = informer<Crd>(reflector(createHttpListerWatcher<Crd>(kubeConfig, resource, config, {}), config), {
    indexers: { groupKind: byGroupKind },
    name: 'customresourcedefinitions.apiextensions.k8s.io (followed for the factory)',
    ...(config.scheduler ? { scheduler: config.scheduler } : {}),
  });
  const find = (snapshot: Snapshot<Crd>, target: CrdTarget): Crd | undefined =>
    (target.plural !== undefined ? snapshot.get(`${target.plural}.${target.group}`) : snapshot.byIndex('groupKind', `${target.group}/${target.kind}`)[0]) as Crd | undefined;
  const refused = crds.status$.pipe(
    filter((status) => status.type === 'ERROR' && status.error instanceof KubeApiError && status.error.code === 403),
    map((): CrdGateInput => ({ type: 'crdWatchUnavailable' })),
  );
  return {
    inputs: (target) =>
      merge(
        crds.snapshots$.pipe(
          filter((snapshot) => snapshot.synced),
          map((snapshot): CrdGateInput => ({ type: 'crd', availability: crdAvailability(find(snapshot, target), target.version) })),
        ),
        refused,
      ).pipe(
        catchError(() => of<CrdGateInput>({ type: 'crdWatchUnavailable' })),
        unlessServedWithoutCrd(servedWithoutCrd(kubeConfig, target)),
      ),
  };
}
