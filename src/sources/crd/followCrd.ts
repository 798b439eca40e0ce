import type { KubeConfigLike } from '../../client/kubeConfigLike.js';
import { catchError, defer, finalize, Observable, of, ReplaySubject, share, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import { discoveryServes } from '../../client/discoverResource.js';
import { kubeConfigTransport } from '../../client/transport/kubeConfigTransport.js';
import { KubeApiError } from '../../errors.js';
import type { KubeObject } from '../../store/kubeObject.js';
import { createHttpListerWatcher } from '../http/httpListerWatcher.js';
import type { ListWatchConfig } from '../listWatchConfig.js';
import type { RawEvent } from '../rawEvent.js';
import { reflector } from '../reflector/reflector.js';
import { crdAvailability, type CrdObject } from './crdAvailability.js';
import type { CrdGateInput } from './crdGateStep.js';
import type { CrdTarget } from './crdTarget.js';

type Crd = CrdObject & KubeObject;

/** The settings of a CRD watch of one source: its clock and backoff (a source given neither shares one watch per KubeConfig and CRD). */
export type FollowCrdConfig = Pick<ListWatchConfig<Crd>, 'backoff'> & { readonly scheduler?: SchedulerLike };

const shared = new WeakMap<KubeConfigLike, Map<string, Observable<CrdGateInput>>>();

/**
 * @internal What a plain `listWatch` source of a custom resource learns of its CRD: the CRD's
 * availability each time it changes once the watch of CRDs has listed, or that the watch is
 * refused (403), as {@link crdGated} takes it, the same inputs the factory's shared watch of CRDs
 * gives its informers. A resource named by its plural watches only its own CRD (a field selector on
 * its name: one small object, not every CRD of the cluster with its schemas); one named by kind
 * watches all CRDs, as it cannot know the name before.
 *
 * Sources of one KubeConfig and CRD share one watch while any of them runs (it ends with the last),
 * unless one brings its own scheduler or backoff (then its watch is its own, on its clock).
 */
export function followCrd(kubeConfig: KubeConfigLike, target: CrdTarget, config: FollowCrdConfig = {}): Observable<CrdGateInput> {
  if (config.scheduler !== undefined || config.backoff !== undefined) return crdInputs(kubeConfig, target, config);
  const key = target.plural !== undefined ? `${target.plural}.${target.group} ${target.version}` : `${target.kind ?? ''} in ${target.group} ${target.version}`;
  let byTarget = shared.get(kubeConfig);
  if (byTarget === undefined) shared.set(kubeConfig, (byTarget = new Map()));
  let inputs = byTarget.get(key);
  if (inputs === undefined) {
    inputs = crdInputs(kubeConfig, target, {}).pipe(share({ connector: () => new ReplaySubject<CrdGateInput>(1), resetOnError: true, resetOnComplete: true, resetOnRefCountZero: true }));
    byTarget.set(key, inputs);
  }
  return inputs;
}

/** The CRD watch of `target` as gate inputs (cold). */
function crdInputs(kubeConfig: KubeConfigLike, target: CrdTarget, config: FollowCrdConfig): Observable<CrdGateInput> {
  const resource = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' };
  const watchConfig: ListWatchConfig<Crd> = { ...config, ...(target.plural !== undefined ? { fieldSelector: `metadata.name=${target.plural}.${target.group}` } : {}) };
  return gateInputs(reflector(createHttpListerWatcher<Crd>(kubeConfig, resource, watchConfig, {}), watchConfig), target).pipe(unlessServedWithoutCrd(servedWithoutCrd(kubeConfig, target)));
}

/**
 * @internal The CRDs a watch of CRDs holds, as the gate inputs of `target`: one after each list and
 * each change once listed; `crdWatchUnavailable` when the watch is refused with 403.
 */
export function gateInputs(events: Observable<RawEvent<Crd>>, target: CrdTarget): Observable<CrdGateInput> {
  return new Observable<CrdGateInput>((subscriber) => {
    let held = new Map<string, Crd>();
    let listing: Map<string, Crd> | undefined;
    let listed = false;
    const tell = (): void => subscriber.next({ type: 'crd', availability: crdAvailability(find(held, target), target.version) });
    return events.subscribe({
      next: (event) => {
        switch (event.type) {
          case 'LIST_START':
            listing = new Map();
            return;
          case 'LIST_PAGE':
            for (const crd of event.items) listing?.set(crd.metadata?.name ?? '', crd);
            return;
          case 'LIST_DONE':
            if (listing !== undefined) held = listing;
            listing = undefined;
            listed = true;
            return tell();
          case 'ADDED':
          case 'MODIFIED':
            held.set(event.object.metadata?.name ?? '', event.object);
            return listed ? tell() : undefined;
          case 'DELETED':
            held.delete(event.object.metadata?.name ?? '');
            return listed ? tell() : undefined;
          case 'STATUS':
            if (event.status.type === 'ERROR' && event.status.error instanceof KubeApiError && event.status.error.code === 403) subscriber.next({ type: 'crdWatchUnavailable' });
            return;
          case 'BOOKMARK':
            return;
        }
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
  });
}

/**
 * @internal Whether the server serves `target`'s resource all the same, asked of discovery once per
 * subscription (false when discovery cannot be asked): an aggregated API's resource, such as
 * `metrics.k8s.io`'s, has no CRD and never will.
 */
export function servedWithoutCrd(kubeConfig: KubeConfigLike, target: CrdTarget): Observable<boolean> {
  return defer(() => {
    const transport = kubeConfigTransport(kubeConfig);
    return discoveryServes(transport, target.group, target.version, target).pipe(finalize(() => transport.closeIdleConnections?.()));
  }).pipe(catchError(() => of(false)));
}

/**
 * @internal Gate inputs as they come, except the first when it finds no CRD: then `served` is asked
 * whether the resource is served without one, and if so the gate is told to step aside
 * (`crdWatchUnavailable`: it runs as if there were no CRD to follow); if not, the newest input goes on.
 *
 * ```text
 * inputs:  ─n──────r──    n: no CRD found, r: ready
 * served:    ──f|          (asked at the first n; f false, t true)
 * result:  ────n───r──     (with t: ────u───r──, u crdWatchUnavailable)
 * ```
 */
export function unlessServedWithoutCrd(served: Observable<boolean>): MonoTypeOperatorFunction<CrdGateInput> {
  return (inputs) =>
    new Observable<CrdGateInput>((subscriber) => {
      let first = true;
      let asking = false;
      let latest: CrdGateInput | undefined;
      const pass = (input: CrdGateInput): void => {
        latest = input;
        if (asking) return;
        if (first && input.type === 'crd' && input.availability.state === 'notFound') {
          first = false;
          asking = true;
          subscriber.add(
            served.subscribe((yes) => {
              asking = false;
              subscriber.next(yes ? { type: 'crdWatchUnavailable' } : latest!);
            }),
          );
          return;
        }
        first = false;
        subscriber.next(input);
      };
      subscriber.add(inputs.subscribe({ next: pass, error: (error: unknown) => subscriber.error(error), complete: () => subscriber.complete() }));
    });
}

/** The CRD of `target` among `held`: by name when its plural is known, else by group and kind. */
function find(held: ReadonlyMap<string, Crd>, target: CrdTarget): Crd | undefined {
  if (target.plural !== undefined) return held.get(`${target.plural}.${target.group}`);
  for (const crd of held.values()) if (crd.spec?.group === target.group && crd.spec?.names?.kind === target.kind) return crd;
  return undefined;
}
