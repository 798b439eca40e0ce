import { writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { answerCors } from './cors.js';
import { handleRequest, sendStatus, type FaultState } from './handleRequest.js';
import { kubeStatus } from './kubeStatus.js';
import { createObject } from './objectHandlers.js';
import { collectionId, createObjectStore } from './objectStore.js';
import type { RequestLogEntry } from './requestLogEntry.js';
import { createRefusableListener } from './refusableListener.js';
import { customResourceDefinitionOf } from './customResourceDefinition.js';
import { followCustomResourceDefinitions } from './crdLifecycle.js';
import { builtinResources, customResourceDefinitions, isCustomResource, type ResourceType } from './resourceType.js';
import type { OpenWatch, ServerContext } from './serverContext.js';
import type { TestApiServer, TestApiServerConfig } from './testApiServer.js';
import { resolveTestServerConfig } from './resolveTestServerConfig.js';
import { createRequestLog } from './requestLog.js';
import { objectControls } from './objectControls.js';
import { faultControls } from './faultControls.js';
import { connectionRefusals } from './connectionRefusals.js';
import { testKubeConfig } from './testKubeConfig.js';

/**
 * Starts a Kubernetes API server on 127.0.0.1 (a free port) that serves ConfigMaps, Pods,
 * Namespaces, Nodes, CustomResourceDefinitions, events.k8s.io Events, coordination.k8s.io Leases
 * ({@link builtinResources}) and any resource you add (a custom one with its CRD): discovery, LIST with pagination and
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
 * resourceVersions. A CustomResourceDefinition created through the API serves its resource (in one
 * version); deleting one deletes its objects, ends its watches and stops serving it, as the real
 * server does (see `crdLifecycle.ts`).
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
 * @param options Optional settings; see {@link TestApiServerConfig}.
 * @returns The running server, once it listens.
 */
export async function createTestApiServer(options: TestApiServerConfig = {}): Promise<TestApiServer> {
  const config = resolveTestServerConfig(options);
  const store = createObjectStore(config.initialResourceVersion, config.changeLogSize);
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
  const openWatches = new Set<OpenWatch>();
  followCustomResourceDefinitions(store, crds, (id) => {
    for (const watch of [...openWatches]) if (watch.collection === id) watch.close();
  });
  for (const resource of config.resources) addResource(resource);
  const log = createRequestLog();
  const faults: FaultState = { token: config.token, userName: config.userName, failures: [], delays: [], forbids: [] };
  const fault = faultControls(faults, openWatches, store, (token) => loadKubeConfig(token));
  const ctx: ServerContext = {
    store,
    openWatches,
    watchesChanged: log.changed,
    splitBytes: fault.splitBytes,
    watchLagMs: fault.watchLagMs,
    ignoreLimitForResourceVersionZero: config.ignoreLimitForResourceVersionZero,
    shardedListAndWatch: config.shardedListAndWatch,
    timing: config.timing,
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    if (config.cors !== undefined && answerCors(config.cors, req, res)) return; // a preflight: not an API request
    const entry = log.record(req, res);
    handleRequest(ctx, faults, entry, req, res).catch((error: unknown) => {
      sendStatus(res, kubeStatus(500, 'InternalError', `Internal error occurred: ${(error as Error)?.message ?? String(error)}`));
    });
    log.changed();
  };

  const http = createHttpServer({ keepAliveTimeout: 5_000 }, onRequest);
  const listener = createRefusableListener(http);
  let closed = false;
  const port = await listener.listen(config.port);
  const url = `http://127.0.0.1:${port}`;

  const { kubeConfig, load: loadKubeConfig } = testKubeConfig(url, config.namespace);
  loadKubeConfig(config.token);

  // The parts of the control API with state of their own are built apart (objects, faults, the
  // request log, refusals, the KubeConfig); here they are joined, with the getters written out, as a
  // spread would read them only once. That flat literal is why this function stays over 80 lines.
  return {
    url,
    port,
    kubeConfig,
    kubeConfigText: () => kubeConfig.exportConfig(),
    writeKubeConfig: (path) => writeFile(path, kubeConfig.exportConfig(), { mode: 0o600 }),
    async close() {
      if (closed) return;
      closed = true;
      listener.stop();
      log.close();
      http.close();
    },
    addResource,
    get resourceVersion() {
      return String(store.currentRV);
    },
    get oldestResourceVersion() {
      return String(store.log.floor);
    },
    ...objectControls(store),
    get requests(): readonly RequestLogEntry[] {
      return log.entries;
    },
    clearRequests: () => void log.entries.splice(0),
    async waitForRequest(predicate, timeoutMs = 30_000) {
      let found: RequestLogEntry | undefined;
      await log.waitFor(() => (found = log.entries.find(predicate)) !== undefined, timeoutMs, 'a matching request');
      return found!;
    },
    get openWatchCount() {
      return openWatches.size;
    },
    get connections() {
      return { accepted: listener.accepted, open: listener.open };
    },
    waitForWatches: (count, timeoutMs = 30_000) => log.waitFor(() => openWatches.size >= count, timeoutMs, `${count} open watches`),
    ...fault.controls,
    refuseConnections: connectionRefusals(listener, port, () => closed),
  };
}
