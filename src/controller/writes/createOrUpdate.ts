import type { Draft } from 'immer';
import type { KubeObject } from '../../store/kubeObject.js';
import { setControllerReference } from '../../store/ownerReferences.js';
import type { ResourceClient, WriteOptions } from '../../client/resourceClient.js';
import { argumentError } from '../../options/optionChecks.js';

/** What {@link createOrUpdate} did (controller-runtime's `OperationResult` of `CreateOrPatch`). */
export type CreateOrUpdateResult = 'created' | 'updated' | 'updatedStatus' | 'updatedStatusOnly' | 'unchanged';

/** Options of {@link createOrUpdate}. */
export interface CreateOrUpdateConfig extends WriteOptions {
  /** Set as the controller owner reference of the object (`controller: true`, `blockOwnerDeletion: true`). */
  readonly owner?: KubeObject;
}

const serverOwned = new Set(['resourceVersion', 'uid', 'creationTimestamp', 'generation', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink']);

/**
 * Makes an object match `desired` in the fields `desired` names, leaving every other field alone:
 * creates it when `current` (read from the cache) is `undefined`; otherwise edits a draft of
 * `current` — objects merge field by field, anything else (arrays, strings) is set as a whole,
 * `null` removes a field — and sends the difference as a JSON Patch locked on the resourceVersion.
 * A `status` in `desired` is written the same way, afterwards, through the status subresource.
 * Nothing is sent when nothing differs.
 *
 * A stale `current` shows up as a {@link ControllerError} `conflict` (the object exists already, or
 * has changed): the controller retries once its cache has caught up. Unlike controller-runtime's
 * `CreateOrPatch`, the current object comes from the caller (the cache), never from a GET.
 *
 * ## Example
 * ```ts
 * import { createOrUpdate, type ResourceClient } from 'rx-informer/controller';
 * import type { Informer, KubeObject } from 'rx-informer';
 *
 * interface ConfigMap extends KubeObject { readonly data?: Readonly<Record<string, string>> }
 * declare const client: ResourceClient, configMaps: Informer<ConfigMap>, set: KubeObject; // assuming: made elsewhere
 * const { result } = await createOrUpdate(client, configMaps.snapshot.get('demo', 'app-config'), {
 *   apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'demo' }, data: { mode: 'fast' },
 * }, { owner: set });
 * // 'created', then 'unchanged' until someone edits data.mode
 * ```
 *
 * @param client the client to write with.
 * @param current the object as cached, or `undefined` when there is none.
 * @param desired the fields to have (with apiVersion, kind, name and namespace).
 * @param config the owner to set, field manager, dry run, signal.
 * @returns what was done, and the object as the server stored it (`current` when unchanged).
 * @throws {ControllerError} `conflict` (stale cache), `alreadyOwned` (another controller owns it).
 */
export async function createOrUpdate<T extends KubeObject>(
  client: ResourceClient,
  current: T | undefined,
  desired: T,
  config: CreateOrUpdateConfig = {},
): Promise<{ readonly result: CreateOrUpdateResult; readonly object: T }> {
  const { owner, ...options } = config;
  const named = desired?.metadata?.name;
  if (typeof named !== 'string' || named === '') throw argumentError('createOrUpdate', 'desired needs metadata.name');
  if (current !== undefined && (current.metadata?.name !== named || (current.metadata?.namespace ?? '') !== (desired.metadata?.namespace ?? ''))) {
    throw argumentError('createOrUpdate', `current is ${current.metadata?.namespace ?? ''}/${current.metadata?.name}, desired is ${desired.metadata?.namespace ?? ''}/${named}`);
  }
  const { status, metadata, ...rest } = desired as T & { status?: unknown };
  // What the server owns is never sent: a create carrying a resourceVersion is refused outright.
  const spec = { ...rest, metadata: Object.fromEntries(Object.entries(metadata ?? {}).filter(([key]) => !serverOwned.has(key))) } as unknown as T;
  if (current === undefined) {
    const fresh = status === undefined ? spec : ({ ...spec, status } as T);
    const object = await client.create(owner ? setControllerReference(fresh, owner) : fresh, options);
    return { result: 'created', object };
  }
  const owned = owner ? setControllerReference(current, owner) : current; // throws alreadyOwned first
  let object = await client.edit(current, (draft) => {
    mergeInto(draft as Record<string, unknown>, spec as unknown as Record<string, unknown>);
    if (owned !== current) (draft as { metadata: { ownerReferences?: unknown } }).metadata.ownerReferences = (owned.metadata as { ownerReferences?: unknown }).ownerReferences;
  }, options);
  const updated = object !== current;
  if (status === undefined) return { result: updated ? 'updated' : 'unchanged', object };
  const before = object;
  object = await client.edit(object, (draft) => {
    const target = draft as Draft<{ status?: unknown }>;
    if (status === null) delete target.status;
    else if (isPlainObject(status) && isPlainObject(target.status)) mergeInto(target.status as Record<string, unknown>, status);
    else target.status = status as Draft<unknown>;
  }, { ...options, subresource: 'status' });
  const statusUpdated = object !== before;
  return { result: statusUpdated ? (updated ? 'updatedStatus' : 'updatedStatusOnly') : updated ? 'updated' : 'unchanged', object };
}

/** Sets `source`'s fields on `target`: objects recursively, everything else whole; `null` deletes. */
function mergeInto(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (value === null) delete target[key];
    else if (isPlainObject(value) && isPlainObject(target[key])) mergeInto(target[key] as Record<string, unknown>, value);
    else target[key] = structuredClone(value);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
