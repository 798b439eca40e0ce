/**
 * An in-memory Lease API on a scheduler, for election tests on virtual time: every request takes
 * `latencyMs` to reach the store and as long again to answer; writes are guarded by resourceVersion
 * (409 as the API server answers); a replica can be cut off (its requests fail, or hang).
 */
import { delay, map, NEVER, Observable, throwError, timer, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';
import { conflictError, KubeApiError, TransportError, type ControllerError } from '../../src/errors.js';
import type { Lease, LeaseRef } from '../../src/coordination/lease.js';
import type { LeaseClient } from '../../src/coordination/leaseClient.js';

export interface FakeLeases {
  /** A client whose requests come from `replica`. */
  client(replica: string): LeaseClient;
  /** `fail`: requests fail with a network error after the latency; `hang`: they never answer; `ok`: normal. */
  cut(replica: string, how: 'fail' | 'hang' | 'ok'): void;
  peek(ref: LeaseRef): Lease | undefined;
  /** Every write that reached the store: who, when, the record. */
  readonly writes: Array<{ replica: string; at: number; lease: Lease }>;
  /**
   * `replica`'s watch of the Leases of `namespace`: the whole list, `latencyMs` after subscribing
   * and after every change; nothing while it is cut off, the whole list again when it is back.
   */
  watch(replica: string, namespace: string): Observable<Lease[] & { readonly synced: true }>;
  /** `replica`'s fresh LIST of the Leases of `namespace` (as cut as its other requests). */
  list(replica: string, namespace: string): Observable<readonly Lease[]>;
  /** Deletes a Lease (as a garbage collector's DELETE would). */
  remove(ref: LeaseRef): void;
}

const key = (ref: LeaseRef): string => `${ref.namespace}/${ref.name}`;
const refOf = (lease: Lease): LeaseRef => ({ namespace: lease.metadata!.namespace!, name: lease.metadata!.name! });

export function fakeLeases(scheduler: SchedulerLike, latencyMs = 10): FakeLeases {
  const store = new Map<string, Lease>();
  const cuts = new Map<string, 'fail' | 'hang'>();
  const writes: FakeLeases['writes'] = [];
  const watchers = new Map<string, Set<() => void>>();
  const changed = (only?: string): void => {
    for (const [replica, set] of watchers) if (only === undefined || only === replica) set.forEach((deliver) => deliver());
  };
  const leasesOf = (namespace: string): Lease[] => [...store.values()].filter((lease) => lease.metadata?.namespace === namespace);
  let revision = 0;

  // As the resource client reports a 409.
  const conflict = (verb: string, ref: LeaseRef): ControllerError =>
    conflictError(new KubeApiError({ verb, resource: 'leases', namespace: ref.namespace, code: 409, status: { kind: 'Status', reason: verb === 'create' ? 'AlreadyExists' : 'Conflict', code: 409 } }), { kind: 'Lease', namespace: ref.namespace, name: ref.name });

  const call = <R>(replica: string, verb: string, apply: () => R): Observable<R> => {
    const cut = cuts.get(replica);
    if (cut === 'hang') return NEVER;
    if (cut === 'fail') return timer(latencyMs, scheduler).pipe(map(() => { throw new TransportError(verb, 'connect ECONNREFUSED', { code: 'ECONNREFUSED' }); }));
    return timer(latencyMs, scheduler).pipe(map(apply), delay(latencyMs, scheduler));
  };

  const stored = (replica: string, lease: Lease): Lease => {
    const next: Lease = { ...lease, metadata: { ...lease.metadata, resourceVersion: String(++revision) } };
    store.set(key(refOf(lease)), next);
    writes.push({ replica, at: scheduler.now(), lease: next });
    changed();
    return next;
  };

  return {
    writes,
    cut: (replica, how) => {
      if (how !== 'ok') return void cuts.set(replica, how);
      cuts.delete(replica);
      changed(replica);
    },
    watch: (replica, namespace) =>
      new Observable<Lease[] & { readonly synced: true }>((subscriber) => {
        const pending = new Set<Subscription>();
        const deliver = (): void => {
          const sent = scheduler.schedule(() => {
            pending.delete(sent);
            if (!cuts.has(replica)) subscriber.next(Object.assign(leasesOf(namespace), { synced: true as const }));
          }, latencyMs);
          pending.add(sent);
        };
        const set = watchers.get(replica) ?? new Set();
        watchers.set(replica, set.add(deliver));
        deliver();
        return () => {
          set.delete(deliver);
          pending.forEach((sent) => sent.unsubscribe());
        };
      }),
    list: (replica, namespace) => call(replica, 'list', () => leasesOf(namespace)),
    remove: (ref) => {
      if (store.delete(key(ref))) changed();
    },
    peek: (ref) => store.get(key(ref)),
    client: (replica) => ({
      get: (ref) => call(replica, 'get', () => store.get(key(ref))),
      create: (lease) =>
        call(replica, 'create', () => {
          if (store.has(key(refOf(lease)))) throw conflict('create', refOf(lease));
          return stored(replica, lease);
        }),
      update: (lease) =>
        call(replica, 'update', () => {
          const current = store.get(key(refOf(lease)));
          if (current === undefined || current.metadata?.resourceVersion !== lease.metadata?.resourceVersion) throw conflict('update', refOf(lease));
          return stored(replica, lease);
        }),
    }),
  };
}

/** Cuts `replica` off with `how` from `from` until `to` on `scheduler`. */
export function cutBetween(leases: FakeLeases, scheduler: SchedulerLike, replica: string, how: 'fail' | 'hang', from: number, to: number): void {
  scheduler.schedule(() => leases.cut(replica, how), from);
  scheduler.schedule(() => leases.cut(replica, 'ok'), to);
}

/** A clock `offsetMs` ahead of `scheduler`'s and running at `rate` times its speed, with timers to match. */
export function skewedScheduler(scheduler: SchedulerLike, offsetMs: number, rate = 1): SchedulerLike {
  const start = scheduler.now();
  return {
    now: () => start + offsetMs + (scheduler.now() - start) * rate,
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delayMs?: number, state?: T): Subscription {
      return scheduler.schedule(work, (delayMs ?? 0) / rate, state);
    },
  };
}

/** An error of the cut-off replica, for `throwError` in other tests. */
export const networkDown = (): Observable<never> => throwError(() => new TransportError('get', 'connect ECONNREFUSED', { code: 'ECONNREFUSED' }));
