import type { KubeConfig } from '@kubernetes/client-node';
import { type BackoffConfig, emptySnapshot, type Indexers, informer, type KubeObject, listWatch, type ListWatchStatus, type Snapshot, stripManagedFields } from 'rx-informer';
import { CliError, usageError } from './cliError.js';
import { columnsFor } from './columnsFor.js';
import { compileJsonPath } from './compileJsonPath.js';
import { crdColumns } from './crdColumns.js';
import { createWatchdog } from './createWatchdog.js';
import { discoverResource, type DiscoveredResource } from './discoverResource.js';
import { followInformer, type FollowedInformer } from './followInformer.js';
import { failureText, isHopeless, type FailureContext } from './failureText.js';
import { createLiveOutput } from './liveOutput.js';
import type { CliOutput } from './liveScreen.js';
import { contextNamespace } from './loadKubeConfig.js';
import { createObjectsOutput } from './objectsOutput.js';
import type { IndexSpec, WatchCommand } from './parseCliArgs.js';
import { createRowsOutput } from './rowsOutput.js';
import type { ResolvedWatch, WatchOutput } from './watchOutput.js';
import { createWatchState, type WatchState } from './watchState.js';

/** What {@link runWatch} watches (the `watch` command's options), where it writes, and when it stops. */
export interface RunWatchConfig extends Omit<WatchCommand, 'command' | 'kubeconfig' | 'context' | 'server' | 'noColor'> {
  /** The cluster; or the promise of it, so that a terminal shows its first frame while client-node loads. */
  readonly kubeConfig: KubeConfig | Promise<KubeConfig>;
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** Aborting it stops the watch; {@link runWatch} then resolves with 0. */
  readonly signal: AbortSignal;
  /** Colours on a terminal (default true): false for `--no-color` or `NO_COLOR`. */
  readonly color?: boolean;
  /** Lines under the title of the live view (and printed once on stderr otherwise). */
  readonly banner?: readonly string[];
  /** The delays of the discovery retries (default: the reflector's backoff). */
  readonly backoff?: BackoffConfig;
}

/**
 * `rx-informer watch`: resolves the resource through discovery (and a custom resource's printer
 * columns through its CRD), runs an informer over {@link listWatch} with the `--index` indexers,
 * and shows it — a live table on a terminal, rows or objects on a pipe — until `signal` aborts or it
 * cannot go on.
 *
 * Unreachable servers are retried (and said so) until `--request-timeout` passes without an
 * answer. What retrying cannot fix ends it with kubectl's wording on stderr, once: an unknown
 * resource, a server that is not a Kubernetes API server, 400/422 (a bad selector), 401, 403, 404,
 * a TLS failure.
 *
 * @param config what to watch and where to write.
 * @returns the exit code: 0 after `signal` aborts, 1 when it could not go on (2: a bad `--index`).
 */
export async function runWatch(config: RunWatchConfig): Promise<number> {
  const { stderr } = config;
  const context: { -readonly [K in keyof FailureContext]: FailureContext[K] } = {
    server: '?',
    typed: config.resource,
    ...(config.labelSelector !== undefined ? { labelSelector: config.labelSelector } : {}),
    ...(config.fieldSelector !== undefined ? { fieldSelector: config.fieldSelector } : {}),
  };
  let indexers: Indexers<KubeObject>;
  try {
    indexers = buildIndexers(config.indexes); // a bad --index is a usage error before any request
  } catch (error) {
    stderr.write(`${failureText(error, context)}\n`);
    return error instanceof CliError ? error.exitCode : 2;
  }

  // Ends the run: the user's signal, a failure retrying cannot fix, or --request-timeout.
  const stop = new AbortController();
  let failure: unknown;
  let lastProblem: Error | undefined;
  const fail = (error: unknown): void => {
    failure ??= error;
    stop.abort(error);
  };
  const onUserAbort = (): void => stop.abort(config.signal.reason);
  if (config.signal.aborted) onUserAbort();
  config.signal.addEventListener('abort', onUserAbort, { once: true });
  const watchdog = createWatchdog(config.requestTimeoutMs, () => fail(new CliError(gaveUp(context, config.requestTimeoutMs, lastProblem))));

  const state = createWatchState(Date.now());
  const output = createOutput(config, state);
  const empty = emptySnapshot<KubeObject>(Object.keys(indexers));
  let followed: FollowedInformer | undefined;
  const snapshot = (): Snapshot<KubeObject> => followed?.snapshot() ?? empty;
  const ticks = setInterval(() => output.tick(snapshot()), output.tickMs);
  try {
    const kubeConfig = await config.kubeConfig;
    context.server = kubeConfig.getCurrentCluster()?.server ?? '?';
    watchdog.start(); // from the first request: loading the kubeconfig (and client-node) is not the server's time
    const resource = await discoverResource(kubeConfig, config.resource, {
      signal: stop.signal,
      ...(config.backoff !== undefined ? { backoff: config.backoff } : {}),
      onRetry: (error, delay) => {
        lastProblem = error;
        const message = error.message.replace(/^\[informer\] \w+ failed: /, '');
        state.onUnreachable(message, Date.now() + delay);
        output.unreachable(message, delay);
      },
    });
    context.resource = resource;
    watchdog.restart();
    const custom = await crdColumns(kubeConfig, resource, stop.signal);
    if (custom.warning) output.warning(custom.warning);
    const namespace = !resource.namespaced || config.allNamespaces ? undefined : (config.namespace ?? contextNamespace(kubeConfig));
    output.resolved(describe(config, kubeConfig, resource, namespace, custom.columns));
    const onStatus = (status: ListWatchStatus): void => {
      if (failure !== undefined) return; // ending: nothing more to say before the one error line
      state.onStatus(status, Date.now());
      output.status(status);
      if (status.type === 'WATCHING') watchdog.stop();
      else if (status.type === 'LISTING' && status.page > 0) watchdog.restart();
      else watchdog.start();
      if (status.type !== 'ERROR') return;
      lastProblem = status.error;
      if (isHopeless(status.error)) fail(status.error); // whether or not the source would retry it
    };
    const source = listWatch<KubeObject>(
      kubeConfig,
      { group: resource.group, version: resource.version, plural: resource.plural, ...(namespace !== undefined ? { namespace } : {}) },
      {
        ...(config.labelSelector !== undefined ? { labelSelector: config.labelSelector } : {}),
        ...(config.fieldSelector !== undefined ? { fieldSelector: config.fieldSelector } : {}),
        metadataOnly: config.metadataOnly,
        transform: stripManagedFields,
        fatalErrors: 'permanent', // 403 and 404 end the command instead of retrying slowly
        signal: stop.signal,
        onStatus,
      },
    );
    followed = followInformer(informer(source, { indexers }), { state, output, initial: snapshot(), signal: stop.signal });
    await followed.done;
    if (failure !== undefined) throw failure;
    finish();
    output.close({ snapshot: snapshot() });
    return 0;
  } catch (error) {
    finish();
    output.close(undefined);
    const cause = failure ?? error;
    if (failure === undefined && config.signal.aborted && stop.signal.reason === config.signal.reason) return 0;
    stderr.write(`${failureText(cause, context)}\n`);
    return cause instanceof CliError ? cause.exitCode : 1;
  }

  function finish(): void {
    clearInterval(ticks);
    watchdog.stop();
    followed?.unsubscribe();
    config.signal.removeEventListener('abort', onUserAbort);
  }
}

/** A live screen for a table on a terminal, rows for a table on a pipe, objects for `-o name|json|yaml`. */
function createOutput(config: RunWatchConfig, state: WatchState): WatchOutput {
  const indexNames = config.indexes.map((index) => index.name);
  const { stdout, stderr } = config;
  const table = config.output === 'table' || config.output === 'wide';
  if (table && stdout.isTTY) {
    return createLiveOutput({ state, stdout, resource: config.resource, indexNames, color: config.color ?? true, ...(config.banner ? { banner: config.banner } : {}) });
  }
  for (const line of config.banner ?? []) stderr.write(`${line}\n`);
  if (table) return createRowsOutput({ state, stdout, stderr, indexNames, watchEvents: config.watchEvents, noHeaders: config.noHeaders });
  return createObjectsOutput({ state, stdout, stderr, indexNames, format: config.output as 'name' | 'json' | 'yaml', watchEvents: config.watchEvents });
}

function describe(config: RunWatchConfig, kubeConfig: KubeConfig, resource: DiscoveredResource, namespace: string | undefined, custom: ResolvedWatch['columns'] | undefined): ResolvedWatch {
  const server = kubeConfig.getCurrentCluster()?.server ?? '?';
  const where = namespace === undefined ? (resource.namespaced ? 'all namespaces' : 'cluster-scoped') : `namespace ${namespace}`;
  return {
    resource,
    columns: columnsFor(resource.kind, {
      wide: config.output === 'wide',
      metadataOnly: config.metadataOnly,
      namespaced: namespace === undefined && resource.namespaced,
      ...(custom ? { custom } : {}),
    }),
    title: `rx-informer watch ${resource.plural}${resource.group ? `.${resource.group}` : ''} · ${where} · ${kubeConfig.getCurrentContext()} @ ${server}`,
    ...(namespace !== undefined ? { namespace } : {}),
  };
}

/** `--index name=path` → index functions giving the path's values as strings (objects and arrays as JSON). */
function buildIndexers(specs: readonly IndexSpec[]): Indexers<KubeObject> {
  const indexers: Record<string, (object: KubeObject) => readonly string[]> = {};
  for (const spec of specs) {
    if (Object.hasOwn(indexers, spec.name)) throw usageError(`--index ${spec.name} is given twice`, 'watch');
    let path: (value: unknown) => unknown[];
    try {
      path = compileJsonPath(spec.path);
    } catch (error) {
      throw usageError(`--index ${spec.name}: ${(error as Error).message}`, 'watch');
    }
    indexers[spec.name] = (object) => path(object).map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  }
  return indexers;
}

/** What `--request-timeout` ran out on: the last failure, or the silence. */
function gaveUp(context: FailureContext, timeoutMs: number, lastProblem: Error | undefined): string {
  const after = `gave up after ${timeoutMs / 1000}s (--request-timeout)`;
  return lastProblem === undefined ? `error: the server at ${context.server} did not answer; ${after}` : `${failureText(lastProblem, context)}; ${after}`;
}
