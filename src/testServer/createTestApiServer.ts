import { KubeConfig } from '@kubernetes/client-node';
import { writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { handleRequest, sendStatus, type FaultState } from './handleRequest.js';
import { TestApiServerError } from './testApiServerError.js';
import { kubeStatus, tooOldResourceVersion } from './kubeStatus.js';
import { failureStatus } from './faultRules.js';
import { createObject, deleteObject, getObject, patchObject, replaceObject } from './objectHandlers.js';
import { collectionId, createObjectStore, type Collection } from './objectStore.js';
import { logEntryFor, type MutableRequestLogEntry, type RequestLogEntry } from './requestLogEntry.js';
import { createRefusableListener } from './refusableListener.js';
import { customResourceDefinitionOf } from './customResourceDefinition.js';
import { builtinResources, customResourceDefinitions, isCustomResource, type ResourceType } from './resourceType.js';
import type { OpenWatch, ServerContext } from './serverContext.js';
import type { JsonObject } from './storedObject.js';
import type { ControlWriteOptions, TestApiServer, TestApiServerConfig } from './testApiServer.js';

const noop = (): void => undefined;

/**
 * Starts a Kubernetes API server on 127.0.0.1 (a free port) that serves ConfigMaps, Pods,
 * Namespaces, Nodes, events.k8s.io Events, CustomResourceDefinitions and any resource you add (a custom one with its CRD): discovery, LIST with pagination and
 * resourceVersion semantics, WATCH with replay, bookmarks and streaming lists, CREATE / UPDATE /
 * PATCH / DELETE, plus fault controls and a request log. Real clients (kubectl, client-node) work
 * against it.
 *
 * Fidelity notes: continue pages and `resourceVersionMatch=Exact` lists are served from the change
 * log, so they are consistent while their RV is in the log and 410 after; `resourceVersion=0` is
 * served as the current state; strategic merge patches are applied as merge patches; server-side
 * apply is simplified (fields are owned by apply managers only; lists are atomic, owner references
 * excepted); a DELETE of an object with finalizers sets `deletionTimestamp` (which writes then
 * keep, and which forbids new finalizers) and removing the last one deletes it; there is no
 * garbage collector; there is no admission, defaulting or validation beyond names and
 * resourceVersions.
 *
 * ## Example
 * ```ts
 * import { createTestApiServer } from 'rx-informer/test-server';
 * const server = await createTestApiServer({ bookmarkIntervalMs: 100 });
 * server.create('configmaps', { metadata: { name: 'a', namespace: 'default' }, data: { k: 'v' } });
 * // point a client at server.kubeConfig; then:
 * server.failNext({ status: 429, verbs: ['watch'], count: 5 });
 * await server.close();
 * ```
 *
 * @param config Optional settings; see {@link TestApiServerConfig}.
 * @returns The running server, once it listens.
 */
export async function createTestApiServer(config: TestApiServerConfig = {}): Promise<TestApiServer> {
  const initialRV = config.initialResourceVersion ?? 1;
  const store = createObjectStore(initialRV, config.changeLogSize ?? 10_000);
  const crds = (() => {
    const builtins = builtinResources.map((resource) => store.addCollection(resource));
    return builtins.find((c) => c.id === customResourceDefinitions)!;
  })();
  // Installing a custom resource type stores its CRD too, as a real cluster has one per custom resource.
  const addResource = (resource: ResourceType): void => {
    const known = store.collection(collectionId(resource)) !== undefined;
    store.addCollection(resource);
    if (known || !isCustomResource(resource)) return;
    const crd = customResourceDefinitionOf(resource);
    createObject(store, { collection: crds, namespace: undefined, name: crd.metadata!.name, subresource: undefined }, crd);
  };
  for (const resource of config.resources ?? []) addResource(resource);
  const openWatches = new Set<OpenWatch>();
  let splitBytes: number | undefined;
  let watchLag: { readonly ms: number; readonly resource: string | undefined } | undefined;
  const requestWaiters = new Set<() => void>();
  const notify = (): void => {
    for (const waiter of [...requestWaiters]) waiter();
  };
  const ctx: ServerContext = {
    store,
    openWatches,
    watchesChanged: notify,
    splitBytes: () => splitBytes,
    watchLagMs: (resource) => (watchLag !== undefined && (watchLag.resource === undefined || watchLag.resource === resource) ? watchLag.ms : 0),
    ignoreLimitForResourceVersionZero: config.ignoreLimitForResourceVersionZero ?? false,
    timing: {
      bookmarkIntervalMs: config.bookmarkIntervalMs ?? 60_000,
      bookmarkLeadMs: config.bookmarkLeadMs ?? 2_000,
      defaultWatchTimeoutSeconds: config.defaultWatchTimeoutSeconds ?? 1_800,
      tooLargeResourceVersionWaitMs: config.tooLargeResourceVersionWaitMs ?? 3_000,
    },
  };
  const faults: FaultState = { token: config.token, userName: config.userName ?? 'test-user', failures: [], delays: [], forbids: [] };
  const requests: MutableRequestLogEntry[] = [];
  let nextId = 1;

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const entry = logEntryFor(nextId++, req.method, req.url, req.headers);
    requests.push(entry);
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    (res as { writeHead: (...args: unknown[]) => ServerResponse }).writeHead = (...args: unknown[]) => {
      entry.status = args[0] as number;
      entry.respondedAt = Date.now();
      notify();
      return writeHead(...args);
    };
    res.on('close', () => {
      entry.endedAt = Date.now();
      notify();
    });
    handleRequest(ctx, faults, entry, req, res).catch((error: unknown) => {
      sendStatus(res, kubeStatus(500, 'InternalError', `Internal error occurred: ${(error as Error)?.message ?? String(error)}`));
    });
    notify();
  };

  const http = createHttpServer({ keepAliveTimeout: 5_000 }, onRequest);
  const listener = createRefusableListener(http);
  let closed = false;
  let refusals = 0;
  const port = await listener.listen(config.port ?? 0);
  const url = `http://127.0.0.1:${port}`;

  const kubeConfig = new KubeConfig();
  const loadKubeConfig = (token: string | undefined): void => {
    kubeConfig.loadFromOptions({
      // client-node 2.x refuses plain http:// unless skipTLSVerify is set; kubectl accepts it too.
      clusters: [{ name: 'rx-informer-test', server: url, skipTLSVerify: true }],
      users: [token === undefined ? { name: 'rx-informer-test' } : { name: 'rx-informer-test', token }],
      contexts: [{ name: 'rx-informer-test', cluster: 'rx-informer-test', user: 'rx-informer-test', namespace: config.namespace ?? 'default' }],
      currentContext: 'rx-informer-test',
    });
  };
  loadKubeConfig(config.token);

  const collectionOf = (resource: string): Collection => {
    const collection = store.collection(resource);
    if (!collection) throw new TypeError(`[informer] test API server: unknown resource "${resource}" (known: ${[...store.collections()].map((c) => c.id).join(', ')})`);
    return collection;
  };
  const target = (resource: string, namespace: string | undefined, name: string | undefined) => ({ collection: collectionOf(resource), namespace, name, subresource: undefined });
  const waitFor = (check: () => boolean, timeoutMs: number, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      if (check()) return resolve();
      const waiter = (): void => {
        if (!closed && !check()) return;
        requestWaiters.delete(waiter);
        clearTimeout(timer);
        if (closed) reject(new Error(`[informer] test API server: closed while waiting for ${what}`));
        else resolve();
      };
      const timer = setTimeout(() => {
        requestWaiters.delete(waiter);
        reject(new Error(`[informer] test API server: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      requestWaiters.add(waiter);
    });
  const eachWatch = (resource: string | undefined, act: (watch: OpenWatch) => void): number => {
    let count = 0;
    for (const watch of [...openWatches]) {
      if (resource !== undefined && watch.collection !== resource) continue;
      act(watch);
      count++;
    }
    return count;
  };

  const server: TestApiServer = {
    url,
    port,
    kubeConfig,
    kubeConfigText: () => kubeConfig.exportConfig(),
    writeKubeConfig: (path) => writeFile(path, kubeConfig.exportConfig(), { mode: 0o600 }),
    async close() {
      if (closed) return;
      closed = true;
      listener.stop();
      notify();
      http.close();
    },
    addResource,
    get resourceVersion() {
      return String(store.currentRV);
    },
    get oldestResourceVersion() {
      return String(store.log.floor);
    },
    create: (resource, object, options?: ControlWriteOptions) => {
      const meta = object.metadata ?? {};
      return createObject(store, target(resource, meta.namespace, meta.name), object, options).object;
    },
    update: (resource, object, options) => {
      const meta = object.metadata ?? {};
      return replaceObject(store, target(resource, meta.namespace, meta.name), object, options).object;
    },
    patch: (resource, namespace, name, patch, options) =>
      patchObject(store, target(resource, namespace, name), 'application/merge-patch+json', patch, options).object,
    delete: (resource, namespace, name, options) => deleteObject(store, target(resource, namespace, name), undefined, options).object,
    get(resource, namespace, name) {
      try {
        return getObject(target(resource, namespace, name)).object;
      } catch (error) {
        if (error instanceof TestApiServerError && error.status.code === 404) return undefined;
        throw error;
      }
    },
    list: (resource, namespace) => [...store.objectsAt(collectionOf(resource), store.currentRV, namespace, undefined)].map((s) => s.object),
    // Any object is a JSON record; seeding skips the checks a write makes, as documented.
    seed: (resource, objects) => store.seed(collectionOf(resource), objects as readonly JsonObject[]),
    compact(resourceVersion) {
      const upTo = resourceVersion === undefined ? store.currentRV : Number(resourceVersion);
      if (!Number.isInteger(upTo) || upTo > store.currentRV) throw new TypeError(`[informer] test API server: cannot compact to resourceVersion "${resourceVersion}" (current ${store.currentRV})`);
      store.log.compact(upTo);
    },
    get requests(): readonly RequestLogEntry[] {
      return requests;
    },
    clearRequests: () => void requests.splice(0),
    async waitForRequest(predicate, timeoutMs = 30_000) {
      let found: RequestLogEntry | undefined;
      await waitFor(() => (found = requests.find(predicate)) !== undefined, timeoutMs, 'a matching request');
      return found!;
    },
    get openWatchCount() {
      return openWatches.size;
    },
    get connections() {
      return { accepted: listener.accepted, open: listener.open };
    },
    waitForWatches: (count, timeoutMs = 30_000) => waitFor(() => openWatches.size >= count, timeoutMs, `${count} open watches`),
    closeWatches: (resource) => eachWatch(resource, (watch) => watch.close()),
    breakWatches: (options = {}) => eachWatch(options.resource, (watch) => watch.breakMidLine(options.reset ?? false)),
    failWatches: (rule) =>
      eachWatch(rule.resource, (watch) => {
        const status =
          rule.status === 410 && rule.message === undefined
            ? tooOldResourceVersion(String(store.log.floor), String(store.log.floor + 1))
            : failureStatus(rule, 'watch', false, () => kubeStatus(403, 'Forbidden', rule.message ?? 'forbidden'));
        watch.fail(status);
      }),
    splitWatchLines(bytes) {
      splitBytes = bytes;
    },
    lagWatches(ms, resource) {
      if (ms !== undefined && !(ms >= 0 && Number.isFinite(ms))) throw new TypeError(`[informer] lagWatches: ms must be a finite number >= 0, got ${String(ms)}`);
      watchLag = ms === undefined || ms === 0 ? undefined : { ms, resource };
    },
    emitMalformedLine: (line = '{"type":"ADDED","object":{"kind":\n', resource) => eachWatch(resource, (watch) => watch.writeRaw(line)),
    failNext: (rule) => void faults.failures.push({ rule, left: rule.count ?? 1 }),
    delayResponses: (rule) => void faults.delays.push({ rule, left: rule.count ?? Infinity }),
    forbid: (rule) => void faults.forbids.push(rule),
    clearFaults() {
      faults.failures = [];
      faults.delays = [];
      faults.forbids = [];
      splitBytes = undefined;
      watchLag = undefined;
    },
    setToken(token, options) {
      faults.token = token;
      if (options?.updateKubeConfig) loadKubeConfig(token);
    },
    async refuseConnections(duration) {
      // Overlapping refusals: the port comes back when the last one ends.
      refusals++;
      listener.stop();
      if (typeof duration === 'number') await new Promise((resolve) => setTimeout(resolve, duration));
      else await Promise.resolve(duration).then(noop, noop); // a rejection ends the refusal too
      if (--refusals > 0) return;
      // While nothing listens, the port is free: a client retrying its connect can get it as its
      // own ephemeral port (a TCP self-connect), or another process can take it. Wait for it back.
      for (let attempt = 0; !closed; attempt++) {
        try {
          await listener.listen(port);
          return;
        } catch (error) {
          if ((error as { code?: unknown }).code !== 'EADDRINUSE' || attempt >= 500) throw error;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    },
  };
  return server;
}
