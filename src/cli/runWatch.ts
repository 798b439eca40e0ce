import type { KubeConfig } from '@kubernetes/client-node';
import type { Subscription } from 'rxjs';
import { informer } from '../informer.js';
import { KubeApiError } from '../sources/kubeApiError.js';
import { listWatch } from '../sources/listWatch.js';
import type { ListWatchStatus } from '../sources/listWatchStatus.js';
import { stripManagedFields } from '../sources/stripManagedFields.js';
import { isTombstone } from '../store/delta.js';
import type { Indexers } from '../store/indexFunc.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import { emptySnapshot, type Snapshot } from '../store/snapshot.js';
import { CliError } from './cliError.js';
import { columnsFor, type Column } from './columnsFor.js';
import { discoverResource, type DiscoveredResource } from './discoverResource.js';
import { formatIndexSummary, indexSummary } from './indexSummary.js';
import { compileJsonPath } from './compileJsonPath.js';
import { createLiveScreen, type CliOutput, type LiveScreen } from './liveScreen.js';
import { contextNamespace } from './loadKubeConfig.js';
import type { IndexSpec } from './parseCliArgs.js';
import { renderScreen } from './renderScreen.js';
import { renderTable } from './renderTable.js';
import { progressLine, statusLine } from './statusText.js';
import { tableHeaders, tableRows } from './tableRows.js';
import { createWatchState, type WatchState } from './watchState.js';

/** What {@link runWatch} watches, where it writes, and when it stops. */
export interface RunWatchConfig {
  readonly kubeConfig: KubeConfig;
  /** As typed: `pods`, `po`, `deployments.apps`. */
  readonly resource: string;
  /** `-n`; without it (and without `allNamespaces`) the context's namespace. */
  readonly namespace?: string;
  readonly allNamespaces: boolean;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly indexes: readonly IndexSpec[];
  readonly metadataOnly: boolean;
  readonly output: 'table' | 'json';
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** Aborting it stops the watch; {@link runWatch} then resolves with 0. */
  readonly signal: AbortSignal;
  /** Lines under the title of the live view (and printed once in plain mode). */
  readonly banner?: readonly string[];
  /** Live view frame period in ms (default 250). */
  readonly frameMs?: number;
  /** Plain-mode status line period in ms (default 1 000). */
  readonly statusEveryMs?: number;
  /** First delay of the discovery retries (default 1 000). */
  readonly retryDelayMs?: number;
}

/** How output is shown: a redrawn terminal screen, plain lines for a pipe, or JSON lines. */
type Mode = 'live' | 'plain' | 'json';

/**
 * `rx-informer watch`: resolves the resource through discovery, runs an informer over
 * {@link listWatch} with the `--index` indexers, and shows it — a live table on a terminal, plain
 * lines on a pipe, or JSON lines with `-o json` — until `signal` aborts or it cannot go on.
 *
 * Unreachable servers are retried (and said so); a 403 or 404 on list/watch, an unknown resource
 * or a refused discovery end it with a one-line message on stderr.
 *
 * @param config what to watch and where to write.
 * @returns the exit code: 0 after `signal` aborts, 1 when it could not go on.
 */
export async function runWatch(config: RunWatchConfig): Promise<number> {
  const { stdout, stderr, signal } = config;
  const mode: Mode = config.output === 'json' ? 'json' : stdout.isTTY ? 'live' : 'plain';
  let indexers: Indexers<KubeObject>;
  try {
    indexers = buildIndexers(config.indexes); // a bad --index is a usage error before any request
  } catch (error) {
    stderr.write(`${fatalMessage(error)}\n`);
    return error instanceof CliError ? error.exitCode : 2;
  }
  const state = createWatchState(Date.now());
  const server = config.kubeConfig.getCurrentCluster()?.server ?? '?';
  const log = (line: string): unknown => (mode === 'plain' ? stdout.write(`${line}\n`) : mode === 'json' ? stderr.write(`${line}\n`) : undefined);
  const warn = (line: string): unknown => (mode === 'live' ? undefined : stderr.write(`${line}\n`));

  let view: View | undefined;
  let screen: LiveScreen | undefined;
  const draw = (): void => view && screen?.draw(view.frame());
  if (mode === 'live') {
    screen = createLiveScreen(stdout, draw);
    view = liveView(state, config, undefined, undefined, screen);
    draw();
  }
  let timer: ReturnType<typeof setInterval> | undefined;
  let subscription: Subscription | undefined;
  const cleanUp = (): void => {
    clearInterval(timer);
    subscription?.unsubscribe();
    screen?.close();
  };

  try {
    if (mode === 'plain') for (const line of config.banner ?? []) log(line);
    const resource = await discoverResource(config.kubeConfig, config.resource, {
      signal,
      ...(config.retryDelayMs !== undefined ? { retryDelayMs: config.retryDelayMs } : {}),
      onRetry: (error, delay) => {
        const reason = error.message.replace(/^\[informer\] \w+ failed: /, '');
        state.onUnreachable(`cannot reach ${server} (${reason})`, Date.now() + delay);
        warn(`[informer] cannot reach ${server} (${reason}); retrying in ${(delay / 1000).toFixed(1)}s`);
        draw();
      },
    });
    const namespace = !resource.namespaced || config.allNamespaces ? undefined : (config.namespace ?? contextNamespace(config.kubeConfig));
    const columns = columnsFor(resource.kind, config.metadataOnly);
    const source = listWatch<KubeObject>(
      config.kubeConfig,
      { group: resource.group, version: resource.version, plural: resource.plural, ...(namespace !== undefined ? { namespace } : {}) },
      {
        ...(config.labelSelector !== undefined ? { labelSelector: config.labelSelector } : {}),
        ...(config.fieldSelector !== undefined ? { fieldSelector: config.fieldSelector } : {}),
        metadataOnly: config.metadataOnly,
        transform: stripManagedFields,
        fatalErrors: 'permanent',
        signal,
        onStatus: (status) => {
          state.onStatus(status, Date.now());
          reportStatus(status, state, resource, log, warn);
        },
      },
    );
    const cache = informer(source, { indexers });
    let snapshot: Snapshot<KubeObject> = emptySnapshot(Object.keys(indexers));
    const where = namespace === undefined ? (resource.namespaced ? 'all namespaces' : 'cluster-scoped') : `namespace ${namespace}`;
    const title = `rx-informer watch ${resource.plural}${resource.group ? `.${resource.group}` : ''} · ${where} · ${config.kubeConfig.getCurrentContext()} @ ${server}`;
    if (mode === 'live') view = liveView(state, config, { resource, columns, namespace, title }, () => snapshot, screen!);

    const exitCode = await new Promise<number>((resolve) => {
      const stop = (): void => resolve(0);
      signal.addEventListener('abort', stop, { once: true });
      const errors = cache.errors$.subscribe((error) => {
        state.onError(error.message, Date.now());
        warn(error.message);
      });
      subscription = cache.updates$.subscribe({
        next: (update) => {
          const wasSynced = snapshot.synced;
          snapshot = update.snapshot;
          const now = Date.now();
          for (const change of update.changes) {
            state.onChange(change, now);
            if (mode === 'json') stdout.write(`${JSON.stringify(jsonChange(change))}\n`);
          }
          if (!wasSynced && snapshot.synced) {
            state.onSynced(now);
            onSynced(mode, state, snapshot, resource, columns, namespace === undefined && resource.namespaced, config, log);
          }
        },
        error: (error: unknown) => {
          signal.removeEventListener('abort', stop);
          screen?.close();
          stderr.write(`${fatalMessage(error)}\n`);
          resolve(1);
        },
        complete: () => resolve(0),
      });
      subscription.add(errors);
      let lastCounts = '';
      let lastPhase = '';
      timer = setInterval(
        () => {
          if (mode === 'live') return draw();
          if (mode !== 'plain' || !snapshot.synced) return;
          const counts = `${state.counts.add}/${state.counts.update}/${state.counts.delete}`;
          if (counts === lastCounts && state.phase.type === lastPhase) return;
          lastCounts = counts;
          lastPhase = state.phase.type;
          log(`${new Date().toISOString().slice(11, 19)} ${statusLine(state, snapshot, resource.plural, Date.now())}`);
        },
        mode === 'live' ? (config.frameMs ?? 250) : (config.statusEveryMs ?? 1000),
      );
    });
    cleanUp();
    if (exitCode === 0 && mode !== 'json') {
      // After the live view is gone, its last state stays on the terminal as a short summary.
      const width = mode === 'live' ? Math.max(20, stdout.columns || 80) : Infinity;
      const fit = (line: string): string => (line.length > width ? `${line.slice(0, width - 1)}…` : line);
      const summary = [statusLine(state, snapshot, resource.plural, Date.now()), ...config.indexes.map((i) => formatIndexSummary(indexSummary(snapshot, i.name, 10), width))];
      for (const line of summary) (mode === 'live' ? stdout.write(`${fit(line)}\n`) : log(line));
    }
    return exitCode;
  } catch (error) {
    cleanUp();
    if (signal.aborted && !(error instanceof CliError) && !(error instanceof KubeApiError)) return 0;
    stderr.write(`${fatalMessage(error)}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}

interface View {
  frame(): string[];
}

function liveView(
  state: WatchState,
  config: RunWatchConfig,
  resolved: { resource: DiscoveredResource; columns: readonly Column[]; namespace: string | undefined; title: string } | undefined,
  snapshot: (() => Snapshot<KubeObject>) | undefined,
  screen: LiveScreen,
): View {
  const empty = emptySnapshot<KubeObject>(config.indexes.map((i) => i.name));
  return {
    frame: () => {
      const { width, height } = screen.size();
      return renderScreen(state, snapshot?.() ?? empty, {
        width,
        height,
        now: Date.now(),
        title: resolved?.title ?? `rx-informer watch ${config.resource}`,
        ...(config.banner ? { banner: config.banner } : {}),
        plural: resolved?.resource.plural ?? config.resource,
        columns: resolved?.columns ?? [],
        namespaceColumn: resolved ? resolved.namespace === undefined && resolved.resource.namespaced : false,
        indexNames: config.indexes.map((i) => i.name),
      });
    },
  };
}

/** `--index name=path` → index functions giving the path's values as strings (objects and arrays as JSON). */
function buildIndexers(specs: readonly IndexSpec[]): Indexers<KubeObject> {
  const indexers: Record<string, (object: KubeObject) => readonly string[]> = {};
  for (const spec of specs) {
    if (Object.hasOwn(indexers, spec.name)) throw new CliError(`--index ${spec.name} is given twice`, { exitCode: 2 });
    const path = compileJsonPath(spec.path);
    indexers[spec.name] = (object) => path(object).map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  }
  return indexers;
}

/** The JSON line of a change: `{"type":"add","key":"ns/a","object":{…}}`; tombstones add `"finalStateUnknown":true`. */
export function jsonChange(change: Notification<KubeObject>): Record<string, unknown> {
  if (change.type !== 'delete' || !isTombstone(change.object)) return { type: change.type, key: change.key, object: change.object };
  return { type: 'delete', key: change.key, object: change.object.object ?? null, finalStateUnknown: true };
}

function reportStatus(status: ListWatchStatus, state: WatchState, resource: DiscoveredResource, log: (line: string) => unknown, warn: (line: string) => unknown): void {
  switch (status.type) {
    case 'LISTING':
      if (status.page > 0) log(`listing ${resource.plural}: ${progressLine(state.list, Date.now()).replace(/^syncing (· )?/, '')}`);
      break;
    case 'WATCHING':
      log(`watching ${resource.plural} from resourceVersion ${status.resourceVersion}`);
      break;
    case 'BACKING_OFF':
      log(`backing off ${(status.delay / 1000).toFixed(1)}s (attempt ${status.attempt}, then ${status.next})`);
      break;
    case 'RELISTING':
      log(`relisting ${resource.plural} (${status.reason})`);
      break;
    case 'ERROR':
      warn(status.error.message);
      break;
  }
}

function onSynced(
  mode: Mode,
  state: WatchState,
  snapshot: Snapshot<KubeObject>,
  resource: DiscoveredResource,
  columns: readonly Column[],
  namespaceColumn: boolean,
  config: RunWatchConfig,
  log: (line: string) => unknown,
): void {
  const took = state.syncMs === undefined ? '' : ` in ${(state.syncMs / 1000).toFixed(2)}s`;
  log(`synced ${snapshot.size.toLocaleString('en-US')} ${resource.plural}${took} (${state.pages} page${state.pages === 1 ? '' : 's'}) at resourceVersion ${snapshot.resourceVersion}`);
  if (mode !== 'plain') return;
  const rows = tableRows(snapshot, { columns, namespaceColumn, now: Date.now() });
  for (const line of renderTable({ headers: tableHeaders(columns, namespaceColumn), rows, width: Infinity })) log(line);
  for (const spec of config.indexes) log(formatIndexSummary(indexSummary(snapshot, spec.name, 20)));
}

function fatalMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith('[informer]') ? message : `[informer] ${message}`;
}
