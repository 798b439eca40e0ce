/*
 * Model-based convergence check shared by the property test (a few hundred cases in `npm test`)
 * and the fuzz runner (`npm run test:fuzz`, 10,000 cases): a random scenario of API writes and
 * injected faults against the real test API server, with an informer over listWatch watching.
 */
import { tap } from 'rxjs';
import fc from 'fast-check';
import type { Subscription } from 'rxjs';
import { informer } from '../../src/informer/informer.js';
import { InformerError, KubeApiError, TransportError } from '../../src/errors.js';
import { listWatch } from '../../src/sources/listWatch.js';
import type { ListWatchStatus } from '../../src/sources/reflector/listWatchStatus.js';
import { isTombstone, type Tombstone } from '../../src/store/delta.js';
import { byLabel, byNamespace, type Indexers } from '../../src/store/indexFunc.js';
import { objectKey } from '../../src/store/keyFunc.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { matchesLabels, parseLabelSelector } from '../../src/store/labelSelector.js';
import type { Notification } from '../../src/store/notification.js';
import type { Snapshot } from '../../src/store/snapshot.js';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { until } from '../helpers/until.js';

// ---------------------------------------------------------------------------------------------
// Scenario

export const namespaces = ['default', 'constructor', 'prototype'] as const;
export const names = ['a', 'b', 'c', 'd', 'constructor', 'hasownproperty', 'tostring'] as const;
const tiers = ['a', 'b', 'constructor', undefined] as const;
type Tier = (typeof tiers)[number];

export type Write =
  | { readonly op: 'create'; readonly ns: string; readonly name: string; readonly tier: Tier; readonly value: number }
  | { readonly op: 'update'; readonly ns: string; readonly name: string; readonly tier: Tier; readonly value: number }
  | { readonly op: 'patch'; readonly ns: string; readonly name: string; readonly tier?: Tier | null; readonly value?: number }
  | { readonly op: 'delete'; readonly ns: string; readonly name: string };

export type Fault =
  | { readonly fault: 'close' }
  | { readonly fault: 'reset' }
  | { readonly fault: 'split'; readonly bytes: number }
  | { readonly fault: 'watch410' }
  | { readonly fault: 'watchError'; readonly status: 429 | 500 }
  | { readonly fault: 'list410' }
  | { readonly fault: 'continue410' }
  | { readonly fault: 'compact' }
  | { readonly fault: 'dropped'; readonly writes: readonly Write[]; readonly repair: 'compact' | 'rewatch' | 'relist' }
  | { readonly fault: 'status'; readonly status: 429 | 500 | 503; readonly verbs: 'list' | 'watch' | 'both'; readonly count: number }
  | { readonly fault: 'refuse'; readonly ms: number }
  | { readonly fault: 'slow'; readonly ms: number; readonly count: number }
  | { readonly fault: 'malformed' }
  | { readonly fault: 'watchOpen410' }
  | { readonly fault: 'denied'; readonly how: 'forbid' | 'unauthorized'; readonly ms: number }
  | { readonly fault: 'garbage'; readonly kind: 'truncate' | 'unknownType' | 'errorBody' | 'nameless' };

export type Step = Write | Fault | { readonly op: 'pause'; readonly ms: number } | { readonly op: 'handler'; readonly resyncMs: number };

export interface InformerSetup {
  readonly labelSelector: string | undefined;
  readonly indexes: boolean;
  readonly transform: boolean;
  readonly resyncMs: number;
  readonly pageSize: number | undefined;
  readonly streamingList: boolean;
  /** Watch one namespace instead of all. */
  readonly namespace: string | undefined;
  /** PartialObjectMetadata instead of full objects. */
  readonly metadataOnly: boolean;
  /** bufferByKey window (0: one batch per synchronous burst). */
  readonly windowMs?: number;
}

export interface Scenario {
  readonly setup: InformerSetup;
  readonly initial: readonly Write[];
  readonly steps: readonly Step[];
}

const nsArb = fc.constantFrom(...namespaces);
const nameArb = fc.constantFrom(...names);
const tierArb = fc.constantFrom(...tiers);
const valueArb = fc.integer({ min: 0, max: 9 });

export const writeArb: fc.Arbitrary<Write> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('create' as const), ns: nsArb, name: nameArb, tier: tierArb, value: valueArb }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('update' as const), ns: nsArb, name: nameArb, tier: tierArb, value: valueArb }) },
  {
    weight: 2,
    arbitrary: fc.record(
      { op: fc.constant('patch' as const), ns: nsArb, name: nameArb, tier: fc.oneof(tierArb, fc.constant(null)), value: valueArb },
      { requiredKeys: ['op', 'ns', 'name'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), ns: nsArb, name: nameArb }) },
);

export const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  fc.constant({ fault: 'close' as const }),
  fc.constant({ fault: 'reset' as const }),
  fc.record({ fault: fc.constant('split' as const), bytes: fc.integer({ min: 1, max: 40 }) }),
  fc.constant({ fault: 'watch410' as const }),
  fc.record({ fault: fc.constant('watchError' as const), status: fc.constantFrom(429 as const, 500 as const) }),
  fc.constant({ fault: 'list410' as const }),
  fc.constant({ fault: 'continue410' as const }),
  fc.constant({ fault: 'compact' as const }),
  // Writes the open watches never see (FakeControllerSource's *DropWatch), then a repair: compaction
  // and a re-watch (410, relist), a plain re-watch (replays the log), or a relist (in-stream 410).
  fc.record({
    fault: fc.constant('dropped' as const),
    writes: fc.array(writeArb, { minLength: 1, maxLength: 4 }),
    repair: fc.constantFrom('compact' as const, 'rewatch' as const, 'relist' as const),
  }),
  fc.record({
    fault: fc.constant('status' as const),
    status: fc.constantFrom(429 as const, 500 as const, 503 as const),
    verbs: fc.constantFrom('list' as const, 'watch' as const, 'both' as const),
    count: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ fault: fc.constant('refuse' as const), ms: fc.integer({ min: 10, max: 60 }) }),
  fc.record({ fault: fc.constant('slow' as const), ms: fc.integer({ min: 5, max: 60 }), count: fc.integer({ min: 1, max: 3 }) }),
  fc.constant({ fault: 'malformed' as const }),
  fc.constant({ fault: 'watchOpen410' as const }),
  fc.record({ fault: fc.constant('denied' as const), how: fc.constantFrom('forbid' as const, 'unauthorized' as const), ms: fc.integer({ min: 10, max: 60 }) }),
  fc.record({ fault: fc.constant('garbage' as const), kind: fc.constantFrom('truncate' as const, 'unknownType' as const, 'errorBody' as const, 'nameless' as const) }),
);

export const setupArb: fc.Arbitrary<InformerSetup> = fc.record({
  labelSelector: fc.constantFrom(undefined, 'tier=a', 'tier!=b', 'tier in (a,constructor)', '!tier'),
  indexes: fc.boolean(),
  transform: fc.boolean(),
  resyncMs: fc.constantFrom(0, 0, 25),
  pageSize: fc.constantFrom(undefined, 2, 5),
  streamingList: fc.boolean(),
  namespace: fc.constantFrom(undefined, undefined, 'constructor'),
  metadataOnly: fc.boolean(),
  windowMs: fc.constantFrom(0, 0, 15),
});

export const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  setup: setupArb,
  initial: fc.array(writeArb, { maxLength: 12, size: 'medium' }),
  steps: fc.array(
    fc.oneof(
      { weight: 6, arbitrary: writeArb as fc.Arbitrary<Step> },
      { weight: 3, arbitrary: faultArb as fc.Arbitrary<Step> },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('pause' as const), ms: fc.integer({ min: 1, max: 30 }) }) },
      // A handler added mid-run (R25: replay of the cache, then live), with or without its own resync.
      { weight: 1, arbitrary: fc.record({ op: fc.constant('handler' as const), resyncMs: fc.constantFrom(0, 1000) }) },
    ),
    { maxLength: 30, size: 'medium' },
  ),
});

// ---------------------------------------------------------------------------------------------
// Model: what the server should hold, independently of the server

interface ModelObject {
  readonly tier: Tier;
  readonly value: number;
}

/** Applies `write` to the model and the server if its precondition holds; returns whether it ran. */
function applyWrite(server: TestApiServer, model: Map<string, ModelObject>, write: Write, broadcast = true): boolean {
  const key = objectKey(write.ns, write.name);
  const current = model.get(key);
  const body = (tier: Tier, value: number) => ({
    metadata: { name: write.name, namespace: write.ns, ...(tier !== undefined ? { labels: { tier } } : {}) },
    data: { value: String(value) },
  });
  switch (write.op) {
    case 'create':
      if (current) return false;
      server.create('configmaps', body(write.tier, write.value), { broadcast });
      model.set(key, { tier: write.tier, value: write.value });
      return true;
    case 'update':
      if (!current) return false;
      server.update('configmaps', body(write.tier, write.value), { broadcast });
      model.set(key, { tier: write.tier, value: write.value });
      return true;
    case 'patch': {
      if (!current) return false;
      const patch: { metadata?: { labels: { tier: string | null } }; data?: { value: string } } = {};
      if (write.tier !== undefined) patch.metadata = { labels: { tier: write.tier } };
      if (write.value !== undefined) patch.data = { value: String(write.value) };
      server.patch('configmaps', write.ns, write.name, patch, { broadcast });
      model.set(key, { tier: write.tier === undefined ? current.tier : (write.tier ?? undefined), value: write.value ?? current.value });
      return true;
    }
    case 'delete':
      if (!current) return false;
      server.delete('configmaps', write.ns, write.name, { broadcast });
      model.delete(key);
      return true;
  }
}

/** Idempotent transform under test: drops `data.drop`, stamps an annotation. */
export function stamp(object: KubeObject): KubeObject {
  const o = object as KubeObject & { data?: Record<string, string> };
  if (o.data) delete o.data['drop'];
  const meta = o.metadata as { annotations?: Record<string, string> };
  meta.annotations = { ...meta.annotations, 'rx-informer/seen': 'yes' };
  return o;
}

const indexers: Indexers<KubeObject> = { namespace: byNamespace, tier: byLabel('tier') };

// ---------------------------------------------------------------------------------------------
// Running one case

export interface CaseResult {
  readonly faults: number;
  readonly writes: number;
  readonly lists: number;
  readonly watches: number;
  readonly notifications: number;
  readonly refusedErrors: number;
}

export interface CaseOptions {
  /** How long to wait for convergence before calling it a divergence. */
  readonly convergeTimeoutMs?: number;
}

const rvOf = (o: KubeObject | undefined): number => Number(o?.metadata?.resourceVersion ?? NaN);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class Divergence extends Error {
  override readonly name = 'Divergence';
}

const knownErrorClasses = [KubeApiError, TransportError];

export async function runScenario(scenario: Scenario, options: CaseOptions = {}): Promise<CaseResult> {
  const { setup } = scenario;
  const server = await createTestApiServer({ bookmarkIntervalMs: 40 });
  const model = new Map<string, ModelObject>();
  let faults = 0;
  let writes = 0;
  let subscription: Subscription | undefined;
  const statuses: ListWatchStatus[] = [];
  const changes: Notification<KubeObject>[] = [];
  const informerErrors: unknown[] = [];
  let streamError: unknown;
  const pending: Promise<void>[] = [];
  let lastStatusAt = Date.now();
  const handlers: HandlerCall[][] = [];
  const handlerSubscriptions: Subscription[] = [];
  try {
    for (const write of scenario.initial) if (applyWrite(server, model, write)) writes++;
    const selector = setup.labelSelector === undefined ? undefined : parseLabelSelector(setup.labelSelector);
    const source$ = listWatch(
      server.kubeConfig,
      { version: 'v1', plural: 'configmaps', ...(setup.namespace !== undefined ? { namespace: setup.namespace } : {}) },
      {
        backoff: { initialDelay: 5, maxDelay: 40 },
        metadataOnly: setup.metadataOnly,
        idleTimeout: 2_000,
        timeoutSeconds: 30,
        ...(setup.labelSelector !== undefined ? { labelSelector: setup.labelSelector } : {}),
        ...(setup.pageSize !== undefined ? { pageSize: setup.pageSize } : {}),
        ...(setup.transform ? { transform: stamp } : {}),
        streamingList: setup.streamingList,
        onStatus: (s) => {
          statuses.push(s);
          lastStatusAt = Date.now();
        },
      },
    );
    // Bookmarks the watch delivered (every 40 ms), counted as they arrive: what "more input" means below.
    let bookmarks = 0;
    const inf = informer(source$.pipe(tap((event) => event.type === 'BOOKMARK' && bookmarks++)), { ...(setup.indexes ? { indexers } : {}), resyncMs: setup.resyncMs, buffer: { windowMs: setup.windowMs ?? 0 } });
    inf.errors$.subscribe((e) => informerErrors.push(e));
    subscription = inf.changes$.subscribe({ next: (c) => changes.push(c), error: (e) => (streamError = e) });
    // Resync updates applied (a tick with something to sync makes one).
    let resyncs = 0;
    subscription.add(inf.updates$.subscribe({ next: (u) => u.resync && resyncs++, error: () => undefined }));

    for (const step of scenario.steps) {
      if ('op' in step) {
        if (step.op === 'pause') await sleep(step.ms);
        else if (step.op === 'handler') {
          const seen: HandlerCall[] = [];
          handlers.push(seen);
          handlerSubscriptions.push(
            inf.addHandler(
              {
                onAdd: (object, initial) => void seen.push({ type: 'add', object, initial }),
                onUpdate: (old, object) => void seen.push({ type: 'update', old, object }),
                onDelete: (object) => void seen.push({ type: 'delete', object }),
              },
              { resyncMs: step.resyncMs },
            ),
          );
        }
        else if (applyWrite(server, model, step)) writes++;
        continue;
      }
      faults++;
      await injectFault(server, model, step, pending);
      // Let the client react now and then, so faults meet different phases of the reflector.
      await sleep(1);
    }
    await Promise.all(pending);
    server.clearFaults();

    // The model and the server agree (checks the harness and the server, not the informer).
    const serverObjects = server.list('configmaps') as KubeObject[];
    const serverKeys = serverObjects.map((o) => objectKey(o.metadata!.namespace, o.metadata!.name!));
    if (serverKeys.join() !== [...model.keys()].sort().join()) {
      throw new Divergence(`server holds [${serverKeys.join()}], model [${[...model.keys()].sort().join()}]`);
    }

    // Expected view: the server's objects the selector selects, transformed.
    const expected = new Map<string, KubeObject>();
    for (const o of serverObjects) {
      if (selector && !matchesLabels(selector, o.metadata?.labels)) continue;
      if (setup.namespace !== undefined && o.metadata?.namespace !== setup.namespace) continue;
      const copy: KubeObject = setup.metadataOnly
        ? { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: structuredClone(o.metadata ?? {}) }
        : structuredClone(o);
      expected.set(objectKey(o.metadata!.namespace, o.metadata!.name!), setup.transform ? stamp(copy) : copy);
    }

    const timeoutMs = options.convergeTimeoutMs ?? 10_000;
    const deadline = Date.now() + timeoutMs;
    // Quiet: converged, watching, and no status for a while (a fault still in flight would show).
    const quiet = (): string | undefined => {
      const why = differences(inf.snapshot, expected, server);
      if (why !== undefined) return why;
      const last = statuses.at(-1);
      if (last?.type !== 'WATCHING') return `last status ${last?.type}`;
      return Date.now() - lastStatusAt < 30 ? 'a status less than 30 ms ago' : undefined;
    };
    let why = quiet();
    while (why !== undefined && streamError === undefined) {
      if (Date.now() > deadline) break;
      await sleep(5);
      why = quiet();
    }
    if (streamError !== undefined) throw new Divergence(`the informer's stream errored: ${String(streamError)}`);
    if (why !== undefined) throw new Divergence(`no convergence within ${timeoutMs} ms: ${why}`);
    // Quiet: nothing moves it away again — not the next bookmarks (every 40 ms), nor a resync (which
    // has nothing to sync, and makes no update, while the cache is empty).
    const [bookmarksThen, resyncsThen] = [bookmarks, resyncs];
    const resynced = (): boolean => setup.resyncMs === 0 || inf.snapshot.size === 0 || resyncs > resyncsThen;
    await until(() => bookmarks > bookmarksThen + 1 && resynced(), 'more input after convergence', timeoutMs);
    why = differences(inf.snapshot, expected, server);
    if (why !== undefined) throw new Divergence(`converged, then diverged: ${why}`);

    checkIndexes(inf.snapshot, setup.indexes);
    checkNotifications(changes, inf.snapshot);
    handlers.forEach((calls, i) => checkHandler(calls, inf.snapshot, `handler #${i}`));
    // errors$ only for the nameless objects injected (one per open watch at the time, at most).
    const nameless = scenario.steps.filter((s) => 'fault' in s && s.fault === 'garbage' && s.kind === 'nameless').length;
    const unexpected = informerErrors.filter((e) => !(e instanceof InformerError && e.reason === 'invalidObject'));
    if (unexpected.length > 0 || informerErrors.length > nameless) throw new Divergence(`errors$ reported ${informerErrors.map(String).join('; ')}`);
    for (const s of statuses) {
      if (s.type === 'ERROR' && !knownErrorClasses.some((c) => s.error instanceof c)) {
        throw new Divergence(`untyped error on the status stream: ${s.error.name}: ${s.error.message}`);
      }
    }

    // No hot loop: a bounded number of requests per fault.
    // LIST cycles: first pages (continue pages of a paginated list are one list).
    const lists = server.requests.filter((r) => r.verb === 'list' && r.query['continue'] === undefined).length;
    const watches = server.requests.filter((r) => r.verb === 'watch').length;
    const listBudget = 2 + 4 * faults;
    const watchBudget = 4 + 8 * faults + Math.ceil(scenario.steps.length / 2);
    if (lists > listBudget) throw new Divergence(`${lists} LISTs for ${faults} faults (budget ${listBudget})`);
    if (watches > watchBudget) throw new Divergence(`${watches} WATCHes for ${faults} faults (budget ${watchBudget})`);
    const refusedErrors = statuses.filter((s) => s.type === 'ERROR' && s.error instanceof TransportError && s.error.code === 'ECONNREFUSED').length;
    const refusedMs = scenario.steps.reduce((sum, s) => sum + ('fault' in s && s.fault === 'refuse' ? s.ms : 0), 0);
    // Backoff from 5 ms doubling to 40 ms: at most ~ms/5 + a few attempts while refused.
    const refusedBudget = Math.ceil(refusedMs / 5) + 3 * faults;
    if (refusedErrors > refusedBudget) throw new Divergence(`${refusedErrors} refused attempts in ${refusedMs} ms of refusal (budget ${refusedBudget})`);
    return { faults, writes, lists, watches, notifications: changes.length, refusedErrors };
  } finally {
    for (const h of handlerSubscriptions) h.unsubscribe();
    subscription?.unsubscribe();
    await Promise.allSettled(pending);
    await server.close();
  }
}

async function injectFault(server: TestApiServer, model: Map<string, ModelObject>, fault: Fault, pending: Promise<void>[]): Promise<void> {
  switch (fault.fault) {
    case 'close':
      server.closeWatches();
      return;
    case 'reset':
      server.breakWatches({ reset: true });
      return;
    case 'split':
      server.splitWatchLines(fault.bytes);
      // Unsplit after a while, so later steps see both.
      pending.push(sleep(15).then(() => server.splitWatchLines(undefined)));
      return;
    case 'watch410':
      server.failWatches({ status: 410 });
      return;
    case 'watchError':
      server.failWatches({ status: fault.status });
      return;
    case 'list410':
      server.failNext({ status: 410, verbs: ['list'] });
      server.failWatches({ status: 410 });
      return;
    case 'continue410':
      server.failNext({ status: 410, verbs: ['list'], match: (r) => r.query['continue'] !== undefined });
      server.failWatches({ status: 410 });
      return;
    case 'compact':
      server.compact();
      server.closeWatches();
      return;
    case 'dropped':
      for (const write of fault.writes) applyWrite(server, model, write, false);
      if (fault.repair === 'compact') server.compact();
      if (fault.repair === 'relist') server.failWatches({ status: 410 });
      else server.closeWatches();
      return;
    case 'status': {
      const verbs = fault.verbs === 'both' ? (['list', 'watch'] as const) : ([fault.verbs] as const);
      server.failNext({ status: fault.status, verbs: [...verbs], count: fault.count, retryAfterSeconds: 0 });
      server.closeWatches();
      return;
    }
    case 'refuse':
      // Stops listening and drops open connections for `ms`; later steps run meanwhile.
      pending.push(server.refuseConnections(fault.ms));
      pending.at(-1)!.catch(() => undefined); // awaited (and reported) after the steps
      return;
    case 'slow':
      server.delayResponses({ ms: fault.ms, count: fault.count, verbs: ['list', 'watch'] });
      server.closeWatches();
      return;
    case 'malformed':
      server.emitMalformedLine();
      return;
    case 'watchOpen410':
      // An HTTP 410 status on the watch request itself (R9: treated as expired).
      server.failNext({ status: 410, verbs: ['watch'] });
      server.closeWatches();
      return;
    case 'denied':
      // RBAC or credentials broken for a while: 403 / 401 on every request, then fixed.
      if (fault.how === 'forbid') server.forbid({ verbs: ['list', 'watch'] });
      else server.setToken('not-what-the-client-sends');
      server.closeWatches();
      pending.push(
        sleep(fault.ms).then(() => {
          if (fault.how === 'forbid') server.clearFaults();
          else server.setToken(undefined);
        }),
      );
      return;
    case 'garbage':
      switch (fault.kind) {
        case 'truncate':
          server.emitMalformedLine('{"type":"DELETED","object":{"kind":"ConfigMap","metadata":{"name":"a","namespace":"default"');
          server.closeWatches();
          return;
        case 'unknownType':
          server.emitMalformedLine('{"type":"UPSERTED","object":{"kind":"ConfigMap","metadata":{"name":"zz","namespace":"default"}}}\n');
          return;
        case 'errorBody':
          server.emitMalformedLine('{"type":"ERROR","object":{"hello":"world"}}\n');
          return;
        case 'nameless':
          server.emitMalformedLine('{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"namespace":"default"}}}\n');
          return;
      }
  }
}

function summary(o: KubeObject | undefined): string {
  if (!o) return '∅';
  const x = o as KubeObject & { data?: unknown };
  return `${o.metadata?.resourceVersion}:${JSON.stringify(o.metadata?.labels ?? {})}:${JSON.stringify(x.data)}:${JSON.stringify(o.metadata?.annotations ?? {})}`;
}

/** Why the snapshot is not `expected`, or undefined when it is (objects compared in full). */
function differences(snapshot: Snapshot<KubeObject>, expected: Map<string, KubeObject>, server: TestApiServer): string | undefined {
  if (!snapshot.synced) return 'not synced';
  const out: string[] = [];
  for (const [key, want] of expected) {
    const got = snapshot.get(key);
    if (!got) out.push(`missing ${key} (${summary(want)})`);
    else if (!sameObject(got, want)) out.push(`${key}: has ${summary(got)}, server ${summary(want)}`);
  }
  for (const key of snapshot.keys()) if (!expected.has(key)) out.push(`extra ${key} (${summary(snapshot.get(key))})`);
  if (out.length > 0) return out.join('; ');
  if (server.openWatchCount !== 1) return `${server.openWatchCount} open watches`;
  return undefined;
}

function sameObject(a: KubeObject, b: KubeObject): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1))) : v,
  );
}

/** Indexes equal indexes rebuilt from scratch out of the snapshot's objects. */
export function checkIndexes(snapshot: Snapshot<KubeObject>, indexed: boolean, functions: Indexers<KubeObject> = indexers): void {
  if (!indexed) return;
  for (const [name, fn] of Object.entries(functions)) {
    const rebuilt = new Map<string, string[]>();
    for (const [key, object] of snapshot.entries()) {
      for (const value of fn(object)) {
        const keys = rebuilt.get(value) ?? [];
        keys.push(key);
        rebuilt.set(value, keys);
      }
    }
    const values = [...snapshot.indexValues(name)].sort();
    const wantValues = [...rebuilt.keys()].sort();
    if (values.join('\0') !== wantValues.join('\0')) throw new Divergence(`index ${name} has values [${values}], rebuilt [${wantValues}]`);
    for (const value of wantValues) {
      const keys = [...snapshot.indexKeys(name, value)];
      const want = rebuilt.get(value)!.sort();
      if (keys.join('\0') !== want.join('\0')) throw new Divergence(`index ${name}[${value}] holds [${keys}], rebuilt [${want}]`);
    }
  }
}

/**
 * Replays the notifications from empty: the result is the snapshot; adds are of absent keys,
 * updates and deletes of cached keys with the cached object as old; a non-sync update changes the
 * resourceVersion and a sync one does not; per key, resourceVersions never go back.
 */
export function checkNotifications(changes: readonly Notification<KubeObject>[], snapshot: Snapshot<KubeObject>): void {
  const state = new Map<string, KubeObject>();
  const lastRV = new Map<string, number>();
  const order = (key: string, rv: number, strict: boolean, what: string): void => {
    const last = lastRV.get(key);
    if (last !== undefined && (strict ? rv <= last : rv < last)) throw new Divergence(`${what} of ${key} at RV ${rv} after RV ${last}: out of server order`);
    lastRV.set(key, rv);
  };
  changes.forEach((c, i) => {
    const at = `notification #${i} (${c.type} ${c.key})`;
    switch (c.type) {
      case 'add':
        if (state.has(c.key)) throw new Divergence(`${at}: add of a cached key`);
        order(c.key, rvOf(c.object), true, 'add');
        state.set(c.key, c.object);
        return;
      case 'update': {
        const cached = state.get(c.key);
        if (!cached) throw new Divergence(`${at}: update of an uncached key`);
        if (rvOf(c.oldObject) !== rvOf(cached)) throw new Divergence(`${at}: old object at RV ${rvOf(c.oldObject)}, cached ${rvOf(cached)}`);
        const same = rvOf(c.oldObject) === rvOf(c.object);
        if (c.sync !== same) throw new Divergence(`${at}: sync=${c.sync} but RVs ${rvOf(c.oldObject)} → ${rvOf(c.object)}`);
        if (!c.sync && sameObject(c.oldObject, c.object)) throw new Divergence(`${at}: a non-sync update with old and new equal`);
        if (c.sync && !sameObject(c.oldObject, c.object)) throw new Divergence(`${at}: a sync update whose objects differ`);
        order(c.key, rvOf(c.object), !c.sync, 'update');
        state.set(c.key, c.object);
        return;
      }
      case 'delete': {
        const cached = state.get(c.key);
        if (!cached) throw new Divergence(`${at}: delete of an uncached key (tombstone: ${isTombstone(c.object)})`);
        if (isTombstone(c.object)) {
          if (c.object.key !== c.key) throw new Divergence(`${at}: tombstone for ${c.object.key}`);
          if (c.object.object !== undefined && rvOf(c.object.object) !== rvOf(cached)) throw new Divergence(`${at}: tombstone carries RV ${rvOf(c.object.object)}, cached ${rvOf(cached)}`);
        } else {
          order(c.key, rvOf(c.object), false, 'delete');
        }
        state.delete(c.key);
        return;
      }
    }
  });
  const keys = [...snapshot.keys()].sort();
  const replayed = [...state.keys()].sort();
  if (keys.join('\0') !== replayed.join('\0')) throw new Divergence(`replay holds [${replayed}], snapshot [${keys}]`);
  for (const key of keys) {
    if (state.get(key) !== snapshot.get(key)) throw new Divergence(`replay of ${key} is ${summary(state.get(key))}, snapshot ${summary(snapshot.get(key))}`);
  }
}

type HandlerCall =
  | { readonly type: 'add'; readonly object: KubeObject; readonly initial: boolean }
  | { readonly type: 'update'; readonly old: KubeObject; readonly object: KubeObject }
  | { readonly type: 'delete'; readonly object: KubeObject | Tombstone<KubeObject> };

/**
 * A handler's calls replayed from empty end at the snapshot (by resourceVersion: sync updates may
 * be filtered per handler, R23); adds of absent keys, updates and deletes of held keys, old = held.
 */
function checkHandler(calls: readonly HandlerCall[], snapshot: Snapshot<KubeObject>, who: string): void {
  const state = new Map<string, KubeObject>();
  const keyOf = (o: KubeObject | Tombstone<KubeObject>): string => (isTombstone(o) ? o.key : objectKey(o.metadata?.namespace, o.metadata!.name!));
  calls.forEach((c, i) => {
    const key = keyOf(c.object);
    const at = `${who} call #${i} (${c.type} ${key})`;
    switch (c.type) {
      case 'add':
        if (state.has(key)) throw new Divergence(`${at}: add of a held key`);
        state.set(key, c.object);
        return;
      case 'update': {
        const held = state.get(key);
        if (!held) throw new Divergence(`${at}: update of a key it never got`);
        if (rvOf(c.old) < rvOf(held)) throw new Divergence(`${at}: old object at RV ${rvOf(c.old)} older than held ${rvOf(held)}`);
        state.set(key, c.object);
        return;
      }
      case 'delete':
        if (!state.delete(key)) throw new Divergence(`${at}: delete of a key it never got`);
        return;
    }
  });
  const want = [...snapshot.entries()].map(([k, o]) => `${k}@${rvOf(o)}`).sort();
  const got = [...state.entries()].map(([k, o]) => `${k}@${rvOf(o)}`).sort();
  if (want.join() !== got.join()) throw new Divergence(`${who} ends with [${got}], snapshot [${want}]`);
}
