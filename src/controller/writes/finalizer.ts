import type { KubeObject } from '../../store/kubeObject.js';
import type { JsonPatchOperation } from '../../client/editPatch.js';
import type { RequestOptions, ResourceClient } from '../../client/resourceClient.js';
import { behindOwnWrite } from '../../client/behindOwnWrite.js';
import { writeRecord } from '../../client/writeRecord.js';
import { argumentError } from '../../options/optionChecks.js';

/**
 * What a finalizer's handler is given besides the object: the run's abort signal, to pass to its
 * own requests so they stop when the run is stopped (the controller shuts down, or its leader lost
 * the lease: `whileLeading`).
 */
export interface FinalizerContext {
  /** The `signal` given to `finalizer()`, aborted when the run is stopped; absent when none was given. */
  readonly signal?: AbortSignal;
}

/** The two halves of a reconciler that owns a finalizer (kube-rs's `finalizer::Event`). */
export interface FinalizerHandlers<T, R> {
  /** The object is live and carries the finalizer: make the world look like it says. */
  readonly apply: (object: T, context: FinalizerContext) => R | Promise<R>;
  /**
   * The object is being deleted and still carries the finalizer: undo what `apply` did outside
   * the object (children the garbage collector would not reach, external state). Must be safe to
   * run again, and to run when `apply` never ran. The finalizer is removed only after it succeeds.
   */
  readonly cleanup: (object: T, context: FinalizerContext) => R | Promise<R>;
}

/**
 * The finalizers of deleting objects whose cleanup succeeded in this process, by `uid\0finalizer`,
 * oldest first; at most 10,000 kept. Whether the removal that followed succeeded is the write
 * record's to tell (an answer noted by uid), not this set's: it only knows what the record cannot,
 * that a cleanup ran.
 */
const cleaned = new Set<string>();
const cleanedKept = 10_000;
const remember = (key: string): void => {
  cleaned.delete(key);
  cleaned.add(key);
  if (cleaned.size > cleanedKept) cleaned.delete(cleaned.values().next().value!);
};

/**
 * Runs a reconciler under a finalizer, in the four states of kube-rs's `finalizer()`:
 *
 * ```text
 * finalizer absent,  not deleting → add it (JSON Patch guarded by the list read), return {} (the change triggers the next run)
 * finalizer present, not deleting → apply(object)
 * finalizer present, deleting     → cleanup(object); once it succeeded, remove it (test of the entry at its index)
 * finalizer absent,  deleting     → nothing, return {}
 * ```
 *
 * Cleanup never runs from a version older than this process's own last write to the object: a
 * deleting object is left alone, returning {}, while the client's write record (by uid: the shared
 * `writeRecord` unless the client was given its own) shows that it deleted or finalized it since
 * (its last finalizer removed), or that a write of it got back a newer resourceVersion than the
 * one in hand — the removal of this finalizer, or any other write. The newer version is on its
 * way to the cache, and its arrival runs the object again. A run can be handed such a version when
 * read-your-own-writes stops waiting for a cache that is behind (a watch cut by an API server
 * restart, say), or when it is turned off: `readYourWrites: false` only stops the controller's
 * wait; every `resourceClient()` write is still noted in its record, so this check holds either
 * way. It sees only writes of `resourceClient()` (a client of your own that does not go through it
 * is not seen) within the record's retention (10 minutes).
 *
 * Before a cleanup, the object is read live (one GET, not from a cache): it is cleaned up only if
 * the server still shows it held by this finalizer, and the cleanup is handed that live version.
 * Another process may have finished the cleanup and removed the finalizer since the version in hand
 * was cached — a new leader's cache can be behind the last leader's writes, which no record of this
 * process knows (the chaos soak saw 98 second cleanups of this kind in 1,586 deletions before the
 * read). A run stopped while that read was answered (its leader lost the lease) ends with the
 * signal's reason and starts no cleanup: the next term runs the object. A cleanup that the process
 * was killed in, or whose term ended while it ran, before its removal still runs again elsewhere:
 * across processes it is at least once, and a cleanup must be idempotent.
 *
 * A cleanup that succeeded is not run again: the process remembers it (by uid, the last 10,000),
 * so when only the removal failed (an API server going away, an answer lost) the next run retries
 * the removal alone. Where the record cannot order two versions (resourceVersions that are not
 * integers: a server before Kubernetes 1.35) and the removal left other finalizers in place, a
 * version from before the removal is therefore answered by the removal alone, whose test of the
 * list fails as a `conflict`, and not by a second cleanup. So within one process a cleanup runs
 * once per object; across processes (a leader killed or cut off between its cleanup and the
 * removal) it is at least once.
 *
 * The patches are guarded by the finalizer list itself, not by the resourceVersion, so a status
 * write or any other change by another writer does not make them fail; a change of the list does
 * (a {@link ControllerError} `conflict`, retried with a fresh read). So the finalizer is never added
 * twice and another controller's finalizers are never dropped, also across retries and restarts.
 * Once `apply` has run, the object cannot disappear before `cleanup` has succeeded.
 *
 * ## Example
 * ```ts
 * import { finalizer, type Reconciler, type ResourceClient } from 'rx-informer/controller';
 * import type { KubeObject } from 'rx-informer';
 *
 * declare const client: ResourceClient; // assuming: resourceClient(kubeConfig)
 * declare function ensureChildren(set: KubeObject, signal?: AbortSignal): Promise<void>; // assuming: your writes
 * declare function deleteChildren(set: KubeObject, signal?: AbortSignal): Promise<void>;
 * const reconcileSet: Reconciler<KubeObject> = (set, { signal }) =>
 *   set &&
 *   finalizer(
 *     client,
 *     'demo.rx-informer.dev/cleanup',
 *     set,
 *     { apply: (live, run) => ensureChildren(live, run.signal), cleanup: (doomed, run) => deleteChildren(doomed, run.signal) },
 *     { signal },
 *   );
 * ```
 *
 * @param client writes the finalizer patches.
 * @param name the finalizer, a qualified name such as `example.com/cleanup`.
 * @param object the object as cached.
 * @param handlers `apply` and `cleanup`.
 * @param options an abort signal for the patches, handed to `apply` and `cleanup` too.
 * @returns what `apply` or `cleanup` returned, or `{}` when the step was the finalizer itself.
 */
export async function finalizer<T extends KubeObject, R>(
  client: ResourceClient,
  name: string,
  object: T,
  handlers: FinalizerHandlers<T, R>,
  options: RequestOptions = {},
): Promise<R | Record<string, never>> {
  if (typeof name !== 'string' || !/^[^/]+\/[^/]+$/.test(name)) throw argumentError('finalizer', `the name must be qualified, like example.com/cleanup; got ${String(name)}`);
  if (typeof handlers?.apply !== 'function' || typeof handlers?.cleanup !== 'function') throw argumentError('finalizer', 'handlers need apply and cleanup functions');
  const finalizers = object.metadata?.finalizers;
  const index = finalizers?.indexOf(name) ?? -1;
  const deleting = object.metadata?.deletionTimestamp !== undefined && object.metadata.deletionTimestamp !== null;
  const target = { apiVersion: object.apiVersion ?? '', kind: object.kind ?? '', name: object.metadata?.name ?? '', ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}) };
  const context: FinalizerContext = options.signal ? { signal: options.signal } : {};
  if (index >= 0 && !deleting) return handlers.apply(object, context);
  if (index >= 0) {
    // A version from before this process's own last write (its finalizer removal, say): the cache is behind.
    if (behindOwnWrite(object, client.record ?? writeRecord)) return {};
    const uid = object.metadata?.uid;
    const key = `${uid ?? ''}\0${name}`;
    let at = index;
    let outcome: R | Record<string, never> = {};
    if (uid === undefined || !cleaned.has(key)) {
      // Another process (the last leader) may have cleaned up and removed this finalizer since the
      // version in hand was cached: a new leader's cache can be behind its predecessor's writes.
      // A cleanup runs only on what a live read still shows deleting and held by this finalizer.
      const live = await client.get<T>(target, options);
      // The run may have been stopped while the read was answered (its leader lost the lease):
      // the next term runs the object again, so this one must not start the cleanup.
      options.signal?.throwIfAborted();
      at = live?.metadata?.finalizers?.indexOf(name) ?? -1;
      if (live === undefined || at < 0 || (uid !== undefined && live.metadata?.uid !== uid)) return {};
      outcome = await handlers.cleanup(live, context);
      if (uid !== undefined) remember(key);
    }
    const path = `/metadata/finalizers/${at}`;
    const remove: JsonPatchOperation[] = [
      { op: 'test', path, value: name },
      { op: 'remove', path },
    ];
    await client.patch(target, remove, { type: 'json', ...options });
    return outcome;
  }
  if (deleting) return {};
  const add: JsonPatchOperation[] =
    finalizers === undefined || finalizers.length === 0
      ? [
          // The API server's JSON Patch tests an absent list as null; an empty one as [].
          { op: 'test', path: '/metadata/finalizers', value: finalizers === undefined ? null : [] },
          { op: 'add', path: '/metadata/finalizers', value: [name] },
        ]
      : [
          { op: 'test', path: '/metadata/finalizers', value: finalizers },
          { op: 'add', path: '/metadata/finalizers/-', value: name },
        ];
  await client.patch(target, add, { type: 'json', ...options });
  return {};
}
