import type { KubeConfig } from '@kubernetes/client-node';
import type { CorsConfig } from './cors.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { DelayRule, FailureRule, ForbidRule } from './faultRules.js';
import type { RequestLogEntry } from './requestLogEntry.js';
import type { ResourceType } from './resourceType.js';
import type { JsonObject, MergePatch } from './storedObject.js';

/** Options of {@link createTestApiServer}. Every time is small-able so tests stay fast. */
export interface TestApiServerConfig {
  /** Let web pages of these origins call the server from a browser (CORS, preflights answered); default none. */
  readonly cors?: CorsConfig;
  /**
   * Resources served besides the built-ins ({@link builtinResources}: ConfigMaps, Pods, Namespaces,
   * Nodes, CustomResourceDefinitions, events.k8s.io Events, coordination.k8s.io Leases), e.g. a
   * custom resource (`statusSubresource: true` for one with `/status`).
   */
  readonly resources?: readonly ResourceType[];
  /** Changes kept for watch replay (default 10 000). Older resourceVersions get 410. */
  readonly changeLogSize?: number;
  /** resourceVersion of the empty server (default 1). */
  readonly initialResourceVersion?: number;
  /** Cadence of BOOKMARK events on watches with `allowWatchBookmarks` (default 60 000 ms, like the real server). */
  readonly bookmarkIntervalMs?: number;
  /** A bookmark is also sent this long before a watch's `timeoutSeconds` ends (default 2 000 ms). */
  readonly bookmarkLeadMs?: number;
  /** Watch lifetime when the request gives no `timeoutSeconds` (default 1 800 s). */
  readonly defaultWatchTimeoutSeconds?: number;
  /** How long a watch from a future resourceVersion waits before its 504 ERROR event (default 3 000 ms). */
  readonly tooLargeResourceVersionWaitMs?: number;
  /** When set, requests must carry `Authorization: Bearer <token>` (401 otherwise). */
  readonly token?: string;
  /** User named in 403 messages (default `test-user`). */
  readonly userName?: string;
  /** Namespace of the kubeconfig context (default `default`). */
  readonly namespace?: string;
  /** Port to listen on (default 0: a free one). */
  readonly port?: number;
  /**
   * A LIST with `resourceVersion=0` ignores `limit` and returns everything, as the watch cache
   * did before Kubernetes 1.33 (default `false`: paginate, as 1.34's cache snapshots do).
   */
  readonly ignoreLimitForResourceVersionZero?: boolean;
  /**
   * Whether LIST and WATCH honour `shardSelector` (KEP-5866), as kube-apiserver 1.36 does with the
   * feature gate `ShardedListAndWatch` on (default `true`). `false` serves a server with the gate
   * off, or older than 1.36: the parameter is ignored — every object is sent, a list answer has
   * no `metadata.shardInfo`, and a malformed selector is no error.
   */
  readonly shardedListAndWatch?: boolean;
}

/** Options of a write made through the control API. */
export interface ControlWriteOptions {
  /**
   * `false` changes the state (and the change log) without telling the open watches, like
   * FakeControllerSource's `*DropWatch`: only a re-watch or relist sees it. Default `true`.
   */
  readonly broadcast?: boolean;
}

/**
 * A Kubernetes API server on 127.0.0.1 for tests, demos and benchmarks.
 *
 * Resource arguments of the control API are collection ids: the plural for the core group
 * (`configmaps`), `plural.group` otherwise (`widgets.example.com`). Objects come back as plain JSON
 * with `kind`/`apiVersion`; writes stamp resourceVersion, uid, creationTimestamp and generation
 * exactly as requests through HTTP do.
 */
export interface TestApiServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The port it listens on: the one asked for, or the free one picked for `0`. */
  readonly port: number;
  /** A client-node KubeConfig whose current context points at this server (with the token, if any). */
  readonly kubeConfig: KubeConfig;
  /** The kubeconfig as a string (JSON, which kubectl reads as YAML). */
  kubeConfigText(): string;
  /** Writes {@link kubeConfigText} to `path` (for `kubectl --kubeconfig`). */
  writeKubeConfig(path: string): Promise<void>;
  /** Ends every watch, drops every connection, stops listening and clears every timer. */
  close(): Promise<void>;

  /** Serves one more resource type (a CRD being "installed"). */
  addResource(resource: ResourceType): void;
  /** The current global resourceVersion. */
  readonly resourceVersion: string;
  /** The oldest resourceVersion a watch can still start from (older ones get 410). */
  readonly oldestResourceVersion: string;

  /**
   * Creates an object (namespace from `metadata.namespace`) and returns it as stored. Takes any
   * Kubernetes object: the testing kit's builders (`pod(…)`, `configMap(…)`), a client-node model
   * or a literal with whatever fields the resource has. @throws {TestApiServerError} as the API would.
   */
  create<T extends KubeObject>(resource: string, object: T, options?: ControlWriteOptions): JsonObject;
  /** Replaces an object (409 if it carries a stale resourceVersion); takes what {@link create} takes. */
  update<T extends KubeObject>(resource: string, object: T, options?: ControlWriteOptions): JsonObject;
  /** Merge-patches an object. */
  patch(resource: string, namespace: string | undefined, name: string, patch: MergePatch, options?: ControlWriteOptions): JsonObject;
  /** Deletes an object; returns its final state. */
  delete(resource: string, namespace: string | undefined, name: string, options?: ControlWriteOptions): JsonObject;
  /** The current object, or undefined. */
  get(resource: string, namespace: string | undefined, name: string): JsonObject | undefined;
  /** Current objects in key order (optionally one namespace). */
  list(resource: string, namespace?: string): JsonObject[];
  /**
   * Stores many objects fast: one resourceVersion each, no events, no change log; then the log is
   * compacted, so watches from before the seed get 410 and relist. For setting up large states.
   */
  seed<T extends KubeObject>(resource: string, objects: readonly T[]): void;
  /** Compacts the change log up to `resourceVersion` (default: the current one). Watches from older RVs then get the 410 ERROR event. */
  compact(resourceVersion?: string): void;

  /** The requests received so far, oldest first. */
  readonly requests: readonly RequestLogEntry[];
  /** Forgets the logged requests. */
  clearRequests(): void;
  /** Resolves with the first logged request (past or future) matching `predicate`; rejects after `timeoutMs` (default 30 000: the deadline only bounds a failing test). */
  waitForRequest(predicate: (request: RequestLogEntry) => boolean, timeoutMs?: number): Promise<RequestLogEntry>;
  /** Number of watch streams currently open. */
  readonly openWatchCount: number;
  /** TCP connections accepted so far and open now (to check that clients reuse and close them). */
  readonly connections: {
    /** TCP connections accepted so far. */
    readonly accepted: number;
    /** TCP connections open now. */
    readonly open: number;
  };
  /** Resolves when at least `count` watches are open; rejects after `timeoutMs` (default 30 000: the deadline only bounds a failing test). */
  waitForWatches(count: number, timeoutMs?: number): Promise<void>;

  /** Ends every open watch cleanly, as a server-side timeout would. @returns how many. */
  closeWatches(resource?: string): number;
  /** Sends half a line on every open watch, then drops the connection (`reset`: TCP RST). @returns how many. */
  breakWatches(options?: {
    /** Drop the connections with a TCP RST instead of a clean close. Default `false`. */
    readonly reset?: boolean;
    /** Only the watches of this collection (`configmaps`, `widgets.example.com`). Default: all. */
    readonly resource?: string;
  }): number;
  /**
   * Ends every open watch with an in-stream ERROR event, e.g. `failWatches({ status: 429 })` or
   * `{ status: 500 }`, worded as {@link failNext} words them (410 gives the "too old resource
   * version" message of a compacted watch). @returns how many.
   */
  failWatches(rule: Omit<FailureRule, 'count' | 'verbs' | 'match'>): number;
  /**
   * From now on, sends every live watch event `ms` after the change (of `resource` only, or of
   * every resource), in order: a loaded apiserver or a slow network between it and the client.
   * Lists, gets and write answers are not delayed, so a client sees its own writes before its
   * watch does. `undefined` or 0 ends the fault (events already held still go out late).
   */
  lagWatches(ms: number | undefined, resource?: string): void;
  /** From now on, writes watch data in chunks of `bytes` bytes (undefined: whole lines again). */
  splitWatchLines(bytes: number | undefined): void;
  /** Writes `line` (default: a line of invalid JSON) to every open watch. @returns how many. */
  emitMalformedLine(line?: string, resource?: string): number;
  /** Fails the next matching request(s) with a Status, e.g. `{ status: 429, verbs: ['watch'], count: 5, retryAfterSeconds: 1 }`. */
  failNext(rule: FailureRule): void;
  /** Delays the responses to matching requests. */
  delayResponses(rule: DelayRule): void;
  /** Denies matching requests with 403 until {@link clearFaults}. */
  forbid(rule: ForbidRule): void;
  /** Removes every failure, delay and forbid rule, the split-lines and the watch-lag faults. */
  clearFaults(): void;
  /**
   * Changes the bearer token the server requires (undefined: none). With `updateKubeConfig`, the
   * {@link kubeConfig} (and {@link kubeConfigText}) carry the new token too; otherwise clients keep
   * sending the old one and get 401, which is how credential reload is tested.
   */
  setToken(
    token: string | undefined,
    options?: {
      /** Put the new token in the server's `kubeConfig` and `kubeConfigText` too. Default `false`. */
      readonly updateKubeConfig?: boolean;
    },
  ): void;
  /**
   * Stops listening (new connections are refused) and drops open connections, then listens again
   * on the same port (waiting, up to 5 s, while something else holds it): after `duration` ms, or
   * once `duration`, a promise, settles — so a test can refuse until its client has seen the
   * refusal (`server.refuseConnections(until(() => refused(), …))`) instead of for a set time.
   */
  refuseConnections(duration: number | PromiseLike<unknown>): Promise<void>;
}
