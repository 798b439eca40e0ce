import { hostname } from 'node:os';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { KubeApiError } from '../errors.js';
import { optionChecks, argumentError } from '../options/optionChecks.js';
import type { KubeObject } from '../store/kubeObject.js';
import { microTime } from '../coordination/microTime.js';
import type { ResourceClient } from '../client/resourceClient.js';

/** Which object an Event is about: a `core/v1` ObjectReference. */
export interface EventObjectReference {
  /** The object's `group/version` (`v1` for the core group). */
  readonly apiVersion: string;
  /** The object's kind, e.g. `Pod`. */
  readonly kind: string;
  /** The object's `metadata.name`. */
  readonly name: string;
  /** The object's namespace; absent for a cluster-scoped object. */
  readonly namespace?: string;
  /** The object's `metadata.uid`, so the Event is not shown for a recreated object of the same name. */
  readonly uid?: string;
}

/** One occurrence to record. */
export interface EventToPublish {
  /** `Normal`, or `Warning` for something that should get attention. */
  readonly type: 'Normal' | 'Warning';
  /** Why, in UpperCamelCase (`Created`, `ReconcileFailed`); at most 128 characters. */
  readonly reason: string;
  /** What the controller did or failed to do (`Reconcile`, `CreateConfigMap`); at most 128 characters. */
  readonly action: string;
  /** Human-readable detail; cut at 1,024 characters. Not part of what makes a repeat (kube-rs's rule). */
  readonly note?: string;
  /** The object the event is about (an object from the cache, or a reference). */
  readonly regarding: KubeObject | EventObjectReference;
  /** A second object involved (the child that was created, say). */
  readonly related?: KubeObject | EventObjectReference;
}

/** Options of {@link eventRecorder}. */
export interface EventRecorderConfig {
  /** `reportingController`, e.g. `demo.rx-informer.dev/configmapset-controller`. */
  readonly controller: string;
  /** `reportingInstance`: this process (default: the host name, which in a Pod is the Pod's name). */
  readonly instance?: string;
  /** A repeat within this long after the last occurrence extends its series instead of writing a new Event. Default 360 000 (6 min, as kube-rs and client-go). */
  readonly seriesWindowMs?: number;
  /** Tries per write before giving up. Default 12 (client-go's `maxTriesPerEvent`). */
  readonly attempts?: number;
  /** Wait between tries. Default 10 000 ms. */
  readonly retryDelayMs?: number;
  /** Told about a write that was given up (events never fail the caller). */
  readonly onError?: (error: unknown, event: EventToPublish) => void;
  /** Clock for event times, the series window and the retries. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** Options of {@link EventRecorder.publish}. */
export interface EventPublishOptions {
  /**
   * Gives the event up when aborted: no further tries, the wait between tries ends, the write in
   * flight is cancelled, and `publish` resolves at once. Pass a reconcile run's signal, so that a
   * run awaiting its events ends with its leadership term instead of retrying past it.
   */
  readonly signal?: AbortSignal;
}

/** Records `events.k8s.io/v1` Events; see {@link eventRecorder}. */
export interface EventRecorder {
  /**
   * Records one occurrence: a new Event, or one more in the series of the same event (same type,
   * reason, action, regarding and related objects) seen within the series window. Resolves once
   * written, given up, or aborted by `options.signal`; never rejects.
   */
  publish(event: EventToPublish, options?: EventPublishOptions): Promise<void>;
}

interface Series {
  readonly name: string;
  readonly namespace: string;
  count: number;
  lastObservedAt: number;
}

/**
 * An event recorder for `events.k8s.io/v1` (kube-rs's `events::Recorder`, client-go's
 * `tools/events`): Events carry `regarding`, `related`, `reportingController`,
 * `reportingInstance`, `action`, `reason`, `note`, `type` and a microsecond `eventTime`, are named
 * `<regarding name>.<hex time>` in the regarding object's namespace (`default` for cluster-scoped
 * ones), and repeats are folded: within `seriesWindowMs` of the last occurrence, a repeat
 * merge-patches `series: { count, lastObservedTime }` of the Event already written instead of
 * writing another.
 *
 * Writes for one series are made one after another; each is tried `attempts` times,
 * `retryDelayMs` apart, and then given up (reported to `onError`): recording an event never fails
 * a reconcile. Events are best effort, as in client-go: a caller that awaits `publish` passes its
 * run's `signal`, which gives the event up when the run is aborted (its leadership term ended,
 * the controller stopped), so that no run outlives its term waiting for an Event. The reference
 * to the regarding object leaves out its resourceVersion, so occurrences across versions of one
 * object fold into one series.
 *
 * ## Example
 * ```ts
 * import { eventRecorder, resourceClient } from 'rx-informer/controller';
 * import type { KubeConfig } from '@kubernetes/client-node';
 * import type { KubeObject } from 'rx-informer';
 *
 * declare const kubeConfig: KubeConfig; // assuming: loaded elsewhere
 * declare const set: KubeObject; // assuming: the object being reconciled
 * const recorder = eventRecorder(resourceClient(kubeConfig), { controller: 'demo.rx-informer.dev/configmapset-controller' });
 * await recorder.publish({ type: 'Normal', reason: 'Created', action: 'CreateConfigMap', note: 'created app-config', regarding: set });
 * ```
 *
 * @param client writes the Events (needs `create` and `patch` on `events.k8s.io/events`).
 * @param config who reports, the series window, retries, clock.
 */
export function eventRecorder(client: ResourceClient, config: EventRecorderConfig): EventRecorder {
  const c = resolveEventRecorderConfig(config);
  const { controller, instance, seriesWindowMs, onError, scheduler } = c;
  const series = new Map<string, Series>(); // oldest occurrence first
  const chains = new Map<string, Promise<void>>();
  let sequence = 0;

  const forgetExpired = (now: number): void => {
    for (const [key, entry] of series) {
      if (now - entry.lastObservedAt <= seriesWindowMs) break;
      series.delete(key);
    }
  };

  const record = async (key: string, event: EventToPublish, signal: AbortSignal | undefined): Promise<void> => {
    const withRetries = (write: () => Promise<unknown>): Promise<void> => tryWrite(write, c, signal);
    const now = scheduler.now();
    forgetExpired(now);
    const regarding = referenceOf(event.regarding);
    const known = series.get(key);
    if (known !== undefined && now - known.lastObservedAt <= seriesWindowMs) {
      const count = known.count + 1;
      try {
        await withRetries(() =>
          client.patch({ apiVersion: 'events.k8s.io/v1', kind: 'Event', namespace: known.namespace, name: known.name }, { series: { count, lastObservedTime: microTime(now) } }, { type: 'merge', ...(signal ? { signal } : {}) }),
        );
        known.count = count;
        known.lastObservedAt = now;
        series.delete(key);
        series.set(key, known); // newest last
        return;
      } catch (error) {
        if (!(error instanceof KubeApiError && error.code === 404)) throw error;
        series.delete(key); // the Event expired on the server: start a new one
      }
    }
    const namespace = regarding.namespace || 'default';
    const name = `${regarding.name}.${(BigInt(Math.floor(now)) * 1_000_000n + BigInt(sequence++ % 1_000_000)).toString(16)}`;
    await withRetries(() =>
      client.create({
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name, namespace },
        eventTime: microTime(now),
        reportingController: controller,
        reportingInstance: instance,
        action: cut(event.action, 128),
        reason: cut(event.reason, 128),
        type: event.type,
        ...(event.note !== undefined ? { note: cut(event.note, 1024) } : {}),
        regarding,
        ...(event.related !== undefined ? { related: referenceOf(event.related) } : {}),
      } as KubeObject, signal ? { signal } : {}),
    );
    series.set(key, { name, namespace, count: 1, lastObservedAt: now });
  };

  return {
    publish(event, options = {}) {
      const { signal } = options;
      let key: string;
      try {
        checkEvent(event);
        key = JSON.stringify([event.type, event.action, event.reason, referenceOf(event.regarding), event.related === undefined ? null : referenceOf(event.related)]);
      } catch (error) {
        onError?.(error, event);
        return Promise.resolve();
      }
      const previous = chains.get(key) ?? Promise.resolve();
      const next = previous.then(() => record(key, event, signal)).catch((error: unknown) => onError?.(error, event));
      chains.set(key, next);
      void next.then(() => {
        if (chains.get(key) === next) chains.delete(key);
      });
      // An aborted publish resolves at once; its place in the series' chain settles when its write does.
      return signal === undefined ? next : settledOrAborted(next, signal);
    },
  };
}

/** An {@link EventRecorderConfig} checked, with every default filled in. */
type ResolvedEventRecorderConfig = Required<Omit<EventRecorderConfig, 'onError'>> & Pick<EventRecorderConfig, 'onError'>;

/** Checks the config at call time (one wording, `optionChecks`) and fills in every default in one literal. */
function resolveEventRecorderConfig(config: EventRecorderConfig): ResolvedEventRecorderConfig {
  const check = optionChecks('eventRecorder', config, false);
  const controller = check.nonEmptyString('controller', config.controller) ?? check.fail('controller (the reportingController) is required');
  return {
    controller,
    instance: config.instance ?? (hostname() || controller),
    seriesWindowMs: check.nonNegative('seriesWindowMs', config.seriesWindowMs) ?? 360_000,
    attempts: check.positiveInteger('attempts', config.attempts) ?? 12,
    retryDelayMs: check.nonNegative('retryDelayMs', config.retryDelayMs) ?? 10_000,
    onError: check.func('onError', config.onError),
    scheduler: config.scheduler ?? asyncScheduler,
  };
}

/**
 * One write tried `attempts` times, `retryDelayMs` apart on the recorder's clock; the last failure
 * is thrown, and so is the signal's reason once it aborts (no try after that, the wait cut short).
 */
async function tryWrite(write: () => Promise<unknown>, { attempts, retryDelayMs, scheduler }: ResolvedEventRecorderConfig, signal: AbortSignal | undefined): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    try {
      await write();
      return;
    } catch (error) {
      if (attempt >= attempts || signal?.aborted) throw error;
      await pause(scheduler, retryDelayMs, signal);
    }
  }
}

/** Resolves after `ms` on the scheduler's clock, or at once when `signal` aborts (the timer cancelled). */
function pause(scheduler: SchedulerLike, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = scheduler.schedule(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = (): void => {
      timer.unsubscribe();
      resolve();
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** Resolves when `work` settles or `signal` aborts, whichever comes first; leaves no listener behind. */
function settledOrAborted(work: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', done, { once: true });
    void work.then(done);
  });
}

function checkEvent(event: EventToPublish): void {
  if (event?.type !== 'Normal' && event?.type !== 'Warning') throw argumentError('eventRecorder', `type must be Normal or Warning, got ${String(event?.type)}`);
  if (typeof event.reason !== 'string' || event.reason === '' || typeof event.action !== 'string' || event.action === '') throw argumentError('eventRecorder', 'an event needs a reason and an action');
}

/** A reference without resourceVersion, so one object's events fold across its versions. */
function referenceOf(target: KubeObject | EventObjectReference): EventObjectReference {
  if ('metadata' in target && target.metadata !== undefined) {
    const object = target as KubeObject;
    const { name, namespace, uid } = object.metadata ?? {};
    if (!object.apiVersion || !object.kind || !name) throw argumentError('eventRecorder', 'the regarding object needs apiVersion, kind and metadata.name');
    return { apiVersion: object.apiVersion, kind: object.kind, name, ...(namespace ? { namespace } : {}), ...(uid ? { uid } : {}) };
  }
  const ref = target as EventObjectReference;
  if (!ref?.apiVersion || !ref.kind || !ref.name) throw argumentError('eventRecorder', 'a reference needs apiVersion, kind and name');
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}), ...(ref.uid ? { uid: ref.uid } : {}) };
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}
