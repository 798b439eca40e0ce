import type { KubeConfigLike } from './kubeConfigLike.js';
import type { Draft } from 'immer';
import { firstValueFrom, map, take, type Observable } from 'rxjs';
import { conflictError, isWriteConflict, KubeApiError } from '../errors.js';
import { discoverKind } from './discoverResource.js';
import { httpRequest, type HttpMethod } from './transport/httpRequest.js';
import { readJson } from './transport/readJson.js';
import { kubeConfigTransport } from './transport/kubeConfigTransport.js';
import { collectionPath, resolveStatically, type ResolvedResource } from './resolveResource.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { TypedObjectRef } from '../store/objectRef.js';
import { controllerReference, ownerReferencesOf } from '../store/ownerReferences.js';
import { editPatch, type JsonPatchOperation } from './editPatch.js';
import { writeRecord, type WriteRecord } from './writeRecord.js';
import { argumentError, describe, optionChecks } from '../options/optionChecks.js';

/** Options every request takes. */
export interface RequestOptions {
  /** Aborts the request (the promise rejects with the signal's reason). */
  readonly signal?: AbortSignal;
}

/** Options of writes. */
export interface WriteOptions extends RequestOptions {
  /** Who makes the change (`?fieldManager=`); defaults to the client's. Required for apply. */
  readonly fieldManager?: string;
  /** Validate and return the result without storing it (`?dryRun=All`). */
  readonly dryRun?: boolean;
}

/** Options of {@link ResourceClient.patch}. */
export interface PatchOptions extends WriteOptions {
  /** `json` (RFC 6902 operations), `merge` (RFC 7386) or `apply` (server-side apply). */
  readonly type: 'json' | 'merge' | 'apply';
  /** Write the status subresource (`/status`) instead of the object. */
  readonly subresource?: 'status';
  /** Apply only: take fields owned by other managers (`?force=true`). */
  readonly force?: boolean;
}

/** Options of {@link ResourceClient.edit}. */
export interface EditOptions extends WriteOptions {
  /** Edit `status` through the status subresource; any change outside `status` is refused. */
  readonly subresource?: 'status';
  /** `test /metadata/resourceVersion` first (default `true`); see {@link EditPatchConfig}. */
  readonly optimisticLock?: boolean;
}

/** Options of {@link ResourceClient.apply}. */
export interface ApplyOptions extends WriteOptions {
  /** Take fields owned by other managers. Default `false`: their fields are a 409. */
  readonly force?: boolean;
  /** Apply `status` through the status subresource. */
  readonly subresource?: 'status';
  /**
   * Applied as the controller owner reference (`controller: true`, `blockOwnerDeletion: true`),
   * beside any the object names; the server merges owner references by uid.
   */
  readonly owner?: KubeObject;
}

/** Options of {@link ResourceClient.delete}. */
export interface DeleteOptions extends RequestOptions {
  /** Delete only the object that still has these; another answers 409, a `conflict`. Default: none. */
  readonly preconditions?: {
    /** The object's `metadata.uid`: not a recreated object of the same name. */
    readonly uid?: string;
    /** The object's `metadata.resourceVersion`: not a version changed since it was read. */
    readonly resourceVersion?: string;
  };
  /** What happens to the objects it owns (garbage collection); absent: the server's default for the kind. */
  readonly propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  /** Seconds the object gets to shut down (pods); 0 deletes at once; absent: the object's own default. */
  readonly gracePeriodSeconds?: number;
  /** Validate the delete without doing it (`dryRun: ['All']`). Default `false`. */
  readonly dryRun?: boolean;
}

/** Options of {@link resourceClient}. */
export interface ResourceClientConfig {
  /** The field manager of every write that names none (controller-runtime's `WithFieldOwner`). */
  readonly fieldManager?: string;
  /**
   * Where the answer to every write is noted for read-your-own-writes. Default: the shared
   * `writeRecord`, which a controller compares its cache with unless given another. A record of your
   * own (`createWriteRecord()`) is given to this client and to the controllers that should see its
   * writes (`controller(…, { readYourWrites: { record } })`).
   */
  readonly record?: WriteRecord;
}

/**
 * Reads and writes single objects of any kind over the library's own HTTP layer: credentials and
 * TLS from the KubeConfig (reloaded on a 401, which is retried once), keep-alive connections, and
 * errors from the one catalogue. A kind is found by its `apiVersion` and `kind`: built-in kinds
 * from a table, custom resources through discovery (asked once per kind).
 *
 * Writes that lose a race reject with {@link ControllerError} `conflict` (a 409, a 422 from a
 * failed JSON Patch `test`, or a 404 of an edit or PUT of an object read before it was deleted);
 * other refusals with {@link KubeApiError}, network failures with
 * `TransportError` (all from the one catalogue of `rx-informer`).
 */
export interface ResourceClient {
  /** The object, or `undefined` when there is none (404). Controllers read the cache instead. */
  get<T extends KubeObject = KubeObject>(target: TypedObjectRef, options?: RequestOptions): Promise<T | undefined>;
  /** POST; the namespace comes from the object. An object that exists already is a `conflict`. */
  create<T extends KubeObject>(object: T, options?: WriteOptions): Promise<T>;
  /** PUT of the whole object (or of its status); its resourceVersion is a precondition (409). */
  replace<T extends KubeObject>(
    object: T,
    options?: WriteOptions & {
      /** `status` to replace only the status subresource (`…/status`); absent: the whole object. */
      readonly subresource?: 'status';
    },
  ): Promise<T>;
  /** PATCH with JSON Patch operations, a merge patch, or an apply body. */
  patch<T extends KubeObject = KubeObject>(target: TypedObjectRef, body: readonly JsonPatchOperation[] | object, options: PatchOptions): Promise<T>;
  /**
   * Edits a draft of `object` and sends what changed as a JSON Patch (see {@link editPatch}); an edit
   * that changes nothing sends nothing and resolves with `object` itself.
   */
  edit<T extends KubeObject>(object: T, recipe: (draft: Draft<T>) => void, options?: EditOptions): Promise<T>;
  /**
   * Server-side apply: "make the fields I manage look like this" (creating the object if need
   * be). The body is `object` without `managedFields`, `resourceVersion`, `uid`,
   * `creationTimestamp` and `generation`, plus the `owner` reference when given; the field
   * manager is required (here or in the client's config). A field another manager owns with
   * another value is a 409 {@link KubeApiError} (not a `conflict`: only `force` or a different
   * field set helps).
   */
  apply<T extends KubeObject>(object: T, options?: ApplyOptions): Promise<T>;
  /**
   * DELETE. Resolves with the object when the server keeps it for now (it carries a
   * `deletionTimestamp`: finalizers pending) and `undefined` when it is gone (including a 404: it was
   * gone already).
   */
  delete(target: TypedObjectRef | KubeObject, options?: DeleteOptions): Promise<KubeObject | undefined>;
  /** Closes idle keep-alive connections (in-flight requests are left alone). */
  close(): void;
  /**
   * The write record this client notes its writes in (`resourceClient()` always says; a client of
   * your own may leave it out, and `finalizer` then reads the shared `writeRecord`).
   */
  readonly record?: WriteRecord;
}

/**
 * Creates a {@link ResourceClient} over a KubeConfig (its current context).
 *
 * ## Example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * import { resourceClient } from 'rx-informer/controller';
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * const client = resourceClient(kubeConfig, { fieldManager: 'configmapset-controller' });
 * const cm = await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'demo' }, data: { k: 'v' } });
 * await client.edit(cm, (draft) => void (draft.data = { k: 'w' }));
 * ```
 *
 * @param kubeConfig client-node's KubeConfig.
 * @param config the default field manager, and the write record (default: the shared `writeRecord`).
 * @throws {TypeError} unless `kubeConfig` is a KubeConfig and `record` (when given) a WriteRecord.
 */
export function resourceClient(kubeConfig: KubeConfigLike, config: ResourceClientConfig = {}): ResourceClient {
  const record = config.record ?? writeRecord;
  if (typeof record?.noteResponse !== 'function' || typeof record.written !== 'function') optionChecks('resourceClient').fail(`record must be a WriteRecord (from createWriteRecord()), got ${describe(config.record)}`);
  const transport = kubeConfigTransport(kubeConfig);
  const discovered = new Map<string, Promise<{ group: string; version: string; plural: string; namespaced: boolean }>>();

  const locate = async (target: TypedObjectRef, signal: AbortSignal | undefined): Promise<ResolvedResource> => {
    checkRef(target);
    const statically = resolveStatically({ apiVersion: target.apiVersion, kind: target.kind, ...(target.namespace ? { namespace: target.namespace } : {}) });
    if (statically !== undefined) return statically;
    const id = `${target.apiVersion}/${target.kind}`;
    let found = discovered.get(id);
    if (found === undefined) {
      found = firstValueFrom(discoverKind(transport, target.apiVersion, target.kind));
      discovered.set(id, found);
      found.catch(() => discovered.delete(id)); // ask again next time
    }
    const kind = await abortable(found, signal);
    if (kind.namespaced && !target.namespace) throw argumentError('resourceClient', `${target.kind} ${target.name} is namespaced; give metadata.namespace`);
    return collectionPath(kind.group, kind.version, kind.plural, kind.namespaced ? target.namespace : undefined);
  };

  const send = async <R>(verb: string, target: TypedObjectRef, request: Request, signal: AbortSignal | undefined, read: (body: unknown) => R): Promise<R> => {
    const where = await locate(target, signal);
    const path = request.collection ? where.path : `${where.path}/${encodeURIComponent(target.name)}${request.subresource ? `/${request.subresource}` : ''}`;
    const query = request.query?.toString();
    // Read-your-own-writes: the answer to every write but a dry run is noted in the client's record.
    const noted = (body: unknown): unknown => (verb !== 'get' && request.dryRun !== true && record.noteResponse(verb, body), body);
    const once = (): Observable<R> =>
      httpRequest<unknown>(
        transport,
        { method: request.method, pathAndQuery: query ? `${path}?${query}` : path, accept: 'application/json', ...(request.body !== undefined ? { body: request.body } : {}), ...(request.contentType ? { contentType: request.contentType } : {}) },
        { verb, resource: where.name, namespace: where.namespace },
        (response, subscriber) => readJson(response, subscriber, undefined, verb),
      ).pipe(map((body) => read(noted(body))));
    try {
      return await toPromise(once(), signal);
    } catch (error) {
      // Credentials are re-read from the KubeConfig for every request: one retry picks up new ones.
      if (error instanceof KubeApiError && error.code === 401 && !signal?.aborted) return toPromise(once(), signal);
      throw error;
    }
  };

  const writeQuery = (options: WriteOptions | undefined, extra: Record<string, string> = {}): URLSearchParams => {
    const query = new URLSearchParams(extra);
    const manager = options?.fieldManager ?? config.fieldManager;
    if (manager) query.set('fieldManager', manager);
    if (options?.dryRun) query.set('dryRun', 'All');
    return query;
  };

  /** A lost race as a `conflict`; `resourceVersion` and `tested` say what the write was built on. */
  const asConflict = (error: unknown, target: TypedObjectRef, fromRead: boolean, resourceVersion?: string, tested?: readonly string[]): unknown =>
    isWriteConflict(error, fromRead) ? conflictError(error, { kind: target.kind, namespace: target.namespace, name: target.name, resourceVersion, tested }) : error;

  const patch = async <T extends KubeObject>(target: TypedObjectRef, body: readonly JsonPatchOperation[] | object, options: PatchOptions): Promise<T> => {
    const type = options?.type;
    if (type !== 'json' && type !== 'merge' && type !== 'apply') throw argumentError('resourceClient.patch', `type must be 'json', 'merge' or 'apply', got ${String(type)}`);
    if (type === 'json' && !Array.isArray(body)) throw argumentError('resourceClient.patch', 'a json patch is an array of operations');
    const extra: Record<string, string> = {};
    if (type === 'apply') {
      if (!(options.fieldManager ?? config.fieldManager)) throw argumentError('resourceClient', 'server-side apply needs a fieldManager (in the options or the client config)');
      if (options.force) extra['force'] = 'true';
    }
    const tests = type === 'json' ? (body as readonly JsonPatchOperation[]).filter((op) => op.op === 'test') : [];
    try {
      return await send(type === 'apply' ? 'apply' : 'patch', target, { method: 'PATCH', query: writeQuery(options, extra), body: JSON.stringify(body), contentType: contentTypes[type], subresource: options.subresource, dryRun: options.dryRun }, options.signal, (b) => b as T);
    } catch (error) {
      const lock = tests.find((op) => op.path === '/metadata/resourceVersion');
      const version = lock !== undefined && 'value' in lock ? lock.value : undefined;
      const others = tests.filter((op) => op.path !== '/metadata/resourceVersion').map((op) => op.path);
      throw asConflict(error, target, tests.length > 0, typeof version === 'string' ? version : undefined, others);
    }
  };

  return {
    get: async <T extends KubeObject>(target: TypedObjectRef, options: RequestOptions = {}) => {
      try {
        return await send('get', target, { method: 'GET' }, options.signal, (b) => b as T);
      } catch (error) {
        if (error instanceof KubeApiError && error.code === 404) return undefined;
        throw error;
      }
    },
    async create(object, options = {}) {
      const target = refOf(object);
      try {
        return await send('create', target, { method: 'POST', collection: true, query: writeQuery(options), body: JSON.stringify(object), dryRun: options.dryRun }, options.signal, (b) => b as typeof object);
      } catch (error) {
        throw asConflict(error, target, false);
      }
    },
    async replace(object, options = {}) {
      const target = refOf(object);
      try {
        return await send('update', target, { method: 'PUT', query: writeQuery(options), body: JSON.stringify(object), subresource: options.subresource, dryRun: options.dryRun }, options.signal, (b) => b as typeof object);
      } catch (error) {
        const version = object.metadata?.resourceVersion;
        throw asConflict(error, target, typeof version === 'string' && version !== '', version);
      }
    },
    patch,
    async edit(object, recipe, options = {}) {
      const { operations } = editPatch(object, recipe, {
        ...(options.optimisticLock !== undefined ? { optimisticLock: options.optimisticLock } : {}),
        ...(options.subresource ? { within: 'status' } : {}),
      });
      if (operations.length === 0) return object;
      return patch<typeof object>(refOf(object), operations, { ...options, type: 'json' });
    },
    apply(object, options = {}) {
      const { owner, ...rest } = options;
      const body = applyBody(owner ? withOwner(object, owner) : object);
      return patch<typeof object>(refOf(object), body, { ...rest, type: 'apply' });
    },
    async delete(target, options = {}) {
      const ref = refOf(target);
      const body: Record<string, unknown> = {};
      if (options.preconditions) body['preconditions'] = options.preconditions;
      if (options.propagationPolicy) body['propagationPolicy'] = options.propagationPolicy;
      if (options.gracePeriodSeconds !== undefined) body['gracePeriodSeconds'] = options.gracePeriodSeconds;
      if (options.dryRun) body['dryRun'] = ['All'];
      try {
        return await send('delete', ref, { method: 'DELETE', dryRun: options.dryRun, ...(Object.keys(body).length > 0 ? { body: JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', ...body }) } : {}) }, options.signal, (b) =>
          (b as KubeObject | undefined)?.metadata?.deletionTimestamp ? (b as KubeObject) : undefined,
        );
      } catch (error) {
        if (error instanceof KubeApiError && error.code === 404) return undefined;
        throw asConflict(error, ref, false, options.preconditions?.resourceVersion);
      }
    },
    close: () => transport.closeIdleConnections?.(),
    record,
  };
}

/** One request of the client, as `send` takes it. */
interface Request {
  readonly method: HttpMethod;
  readonly query?: URLSearchParams;
  readonly body?: string;
  readonly contentType?: string;
  /** The collection (a create), not the named object. */
  readonly collection?: boolean;
  readonly subresource?: string | undefined;
  /** The verb's own `dryRun` option: the answer is not a write, so the record is not told. */
  readonly dryRun?: boolean | undefined;
}

const contentTypes = { json: 'application/json-patch+json', merge: 'application/merge-patch+json', apply: 'application/apply-patch+yaml' } as const;

/** `object` naming `owner` as its controller, next to the other owners it names. */
function withOwner<T extends KubeObject>(object: T, owner: KubeObject): T {
  const ref = controllerReference(owner);
  const others = ownerReferencesOf(object).filter((r) => r.uid !== ref.uid);
  return { ...object, metadata: { ...object.metadata, ownerReferences: [...others, ref] } };
}

/** The body of an apply: the intent, without what the server owns. */
function applyBody(object: KubeObject): KubeObject {
  const { managedFields: _m, resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, generation: _g, ...metadata } = (object.metadata ?? {}) as Record<string, unknown>;
  return { ...object, metadata };
}

function refOf(value: TypedObjectRef | KubeObject): TypedObjectRef {
  if ('metadata' in value || !('name' in value)) {
    const object = value as KubeObject;
    return {
      apiVersion: object.apiVersion ?? '',
      kind: object.kind ?? '',
      name: object.metadata?.name ?? '',
      ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}),
    };
  }
  return value;
}

function checkRef(target: TypedObjectRef): void {
  const missing = (['apiVersion', 'kind', 'name'] as const).filter((field) => typeof target?.[field] !== 'string' || target[field] === '');
  if (missing.length > 0) throw argumentError('resourceClient', `the object needs ${missing.map((f) => (f === 'name' ? 'metadata.name' : f)).join(', ')}`);
}

/** The one value of a cold request; aborting the signal unsubscribes it (destroying the request). */
function toPromise<R>(source: Observable<R>, signal: AbortSignal | undefined): Promise<R> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<R>((resolve, reject) => {
    const onAbort = (): void => {
      subscription.unsubscribe();
      reject(signal!.reason);
    };
    const subscription = source.pipe(take(1)).subscribe({
      next: (value) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      },
      error: (error: unknown) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      },
      complete: () => reject(new Error('[resourceClient] the response had no body')),
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortable<R>(promise: Promise<R>, signal: AbortSignal | undefined): Promise<R> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<R>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
