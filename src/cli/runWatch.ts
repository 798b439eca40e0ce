import type { KubeConfig } from '@kubernetes/client-node';
import type { Subscription } from 'rxjs';
import { emptySnapshot, type Indexers, informer, KubeApiError, type KubeObject, listWatch, type Snapshot, stripManagedFields } from '../index.js';
import { CliError } from './cliError.js';
import { columnsFor } from './columnsFor.js';
import { compileJsonPath } from './compileJsonPath.js';
import { discoverResource, type DiscoveredResource } from './discoverResource.js';
import { createJsonOutput } from './jsonOutput.js';
import { createLiveOutput } from './liveOutput.js';
import type { CliOutput } from './liveScreen.js';
import { contextNamespace } from './loadKubeConfig.js';
import type { IndexSpec, WatchCommand } from './parseCliArgs.js';
import { createPlainOutput } from './plainOutput.js';
import type { ResolvedWatch, WatchOutput } from './watchOutput.js';
import { createWatchState, type WatchState } from './watchState.js';

/** What {@link runWatch} watches (the `watch` command's options), where it writes, and when it stops. */
export interface RunWatchConfig extends Omit<WatchCommand, 'command' | 'kubeconfig' | 'context'> {
  readonly kubeConfig: KubeConfig;
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** Aborting it stops the watch; {@link runWatch} then resolves with 0. */
  readonly signal: AbortSignal;
  /** Lines under the title of the live view (and printed once in plain mode). */
  readonly banner?: readonly string[];
  /** First delay of the discovery retries (default 1 000). */
  readonly retryDelayMs?: number;
}

/**
 * `rx-informer watch`: resolves the resource through discovery, runs an informer over
 * {@link listWatch} with the `--index` indexers, and shows it — a live table on a terminal, plain
 * lines on a pipe, or JSON lines with `-o json` — until `signal` aborts or it cannot go on.
 *
 * Unreachable servers are retried (and said so); a 403 or 404 on list/watch, an unknown resource
 * or a refused discovery end it with a one-line message on stderr.
 *
 * @param config what to watch and where to write.
 * @returns the exit code: 0 after `signal` aborts, 1 when it could not go on (2: a bad `--index`).
 */
export async function runWatch(config: RunWatchConfig): Promise<number> {
  const { stderr, signal } = config;
  let indexers: Indexers<KubeObject>;
  try {
    indexers = buildIndexers(config.indexes); // a bad --index is a usage error before any request
  } catch (error) {
    stderr.write(`${fatalMessage(error)}\n`);
    return error instanceof CliError ? error.exitCode : 2;
  }
  const state = createWatchState(Date.now());
  const output = createOutput(config, state);
  let snapshot: Snapshot<KubeObject> = emptySnapshot(Object.keys(indexers));
  let subscription: Subscription | undefined;
  const ticks = setInterval(() => output.tick(snapshot), output.tickMs);
  const server = config.kubeConfig.getCurrentCluster()?.server ?? '?';
  try {
    const resource = await discoverResource(config.kubeConfig, config.resource, {
      signal,
      ...(config.retryDelayMs !== undefined ? { retryDelayMs: config.retryDelayMs } : {}),
      onRetry: (error, delay) => {
        const message = `cannot reach ${server} (${error.message.replace(/^\[informer\] \w+ failed: /, '')})`;
        state.onUnreachable(message, Date.now() + delay);
        output.unreachable(message, delay);
      },
    });
    const namespace = !resource.namespaced || config.allNamespaces ? undefined : (config.namespace ?? contextNamespace(config.kubeConfig));
    output.resolved(describe(config, resource, namespace, server));
    const source = listWatch<KubeObject>(
      config.kubeConfig,
      { group: resource.group, version: resource.version, plural: resource.plural, ...(namespace !== undefined ? { namespace } : {}) },
      {
        ...(config.labelSelector !== undefined ? { labelSelector: config.labelSelector } : {}),
        ...(config.fieldSelector !== undefined ? { fieldSelector: config.fieldSelector } : {}),
        metadataOnly: config.metadataOnly,
        transform: stripManagedFields,
        fatalErrors: 'permanent', // 403 and 404 end the command instead of retrying slowly
        signal,
        onStatus: (status) => {
          state.onStatus(status, Date.now());
          output.status(status);
        },
      },
    );
    const cache = informer(source, { indexers });
    await new Promise<void>((resolve, reject) => {
      signal.addEventListener('abort', () => resolve(), { once: true });
      subscription = cache.updates$.subscribe({
        next: (update) => {
          const wasSynced = snapshot.synced;
          snapshot = update.snapshot;
          const now = Date.now();
          for (const change of update.changes) state.onChange(change, now);
          output.update(snapshot, update.changes);
          if (!wasSynced && snapshot.synced) {
            state.onSynced(now);
            output.synced(snapshot);
          }
        },
        error: reject,
        complete: resolve,
      });
      subscription.add(
        cache.errors$.subscribe((error) => {
          state.onError(error.message, Date.now());
          output.warning(error.message);
        }),
      );
    });
    stop();
    output.close({ snapshot });
    return 0;
  } catch (error) {
    stop();
    output.close(undefined);
    if (signal.aborted && !(error instanceof CliError) && !(error instanceof KubeApiError)) return 0;
    stderr.write(`${fatalMessage(error)}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  }

  function stop(): void {
    clearInterval(ticks);
    subscription?.unsubscribe();
  }
}

/** A live screen on a terminal, plain lines on a pipe, JSON lines with `-o json`. */
function createOutput(config: RunWatchConfig, state: WatchState): WatchOutput {
  const indexNames = config.indexes.map((index) => index.name);
  const { stdout, stderr } = config;
  if (config.output === 'json') return createJsonOutput(stdout, { state, stdout: stderr, stderr, indexNames });
  if (!stdout.isTTY) {
    for (const line of config.banner ?? []) stdout.write(`${line}\n`);
    return createPlainOutput({ state, stdout, stderr, indexNames });
  }
  return createLiveOutput({ state, stdout, resource: config.resource, indexNames, ...(config.banner ? { banner: config.banner } : {}) });
}

function describe(config: RunWatchConfig, resource: DiscoveredResource, namespace: string | undefined, server: string): ResolvedWatch {
  const where = namespace === undefined ? (resource.namespaced ? 'all namespaces' : 'cluster-scoped') : `namespace ${namespace}`;
  return {
    resource,
    columns: columnsFor(resource.kind, config.metadataOnly),
    namespaceColumn: namespace === undefined && resource.namespaced,
    title: `rx-informer watch ${resource.plural}${resource.group ? `.${resource.group}` : ''} · ${where} · ${config.kubeConfig.getCurrentContext()} @ ${server}`,
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

function fatalMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith('[informer]') ? message : `[informer] ${message}`;
}
