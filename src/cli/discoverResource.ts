import type { KubeConfig } from '@kubernetes/client-node';
import type { Observable } from 'rxjs';
import { httpGet } from '../sources/http/httpGet.js';
import { readJson } from '../sources/http/readJson.js';
import { createRequestContext, type RequestContext } from '../sources/http/requestContext.js';
import { KubeApiError } from '../errors.js';
import { CliError } from './cliError.js';

/** A resource found through discovery, with what the CLI needs to list and show it. */
export interface DiscoveredResource {
  /** `""` for the core group. */
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/** Options of {@link discoverResource}. */
export interface DiscoverResourceConfig {
  /** Told about each failed attempt before the next one (the server cannot be reached, for example). */
  readonly onRetry?: (error: Error, delayMs: number) => void;
  /** Stops the retries; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** First delay between attempts when the server cannot be reached (doubles up to 30 s). Default 1 000. */
  readonly retryDelayMs?: number;
}

interface ApiResource {
  readonly name?: string;
  readonly singularName?: string;
  readonly shortNames?: readonly string[];
  readonly kind?: string;
  readonly namespaced?: boolean;
}

/**
 * Resolves what a user types after `kubectl get` — plural (`pods`), singular (`pod`), short name
 * (`po`), kind (`Pod`), each optionally qualified by group (`deployments.apps`,
 * `widgets.example.com`) or version and group (`deployments.v1.apps`) — through the API server's
 * discovery documents (`/api/v1`, `/apis`, `/apis/<group>/<version>`). The core group wins a tie,
 * as with kubectl. Transport failures (refused, unreachable) are retried until `signal` aborts.
 *
 * @param kubeConfig the cluster to ask.
 * @param text the resource as typed.
 * @param config retry reporting and cancellation.
 * @returns the resource.
 * @throws {CliError} for an unknown resource; {@link KubeApiError} when discovery itself is refused.
 */
export async function discoverResource(kubeConfig: KubeConfig, text: string, config: DiscoverResourceConfig = {}): Promise<DiscoveredResource> {
  const context = createRequestContext(kubeConfig);
  const { name, version, group } = splitResourceText(text);
  let delay = config.retryDelayMs ?? 1000;
  try {
    for (;;) {
      try {
        const found = await search(context, name, group, version, config.signal);
        if (found) return found;
        throw new CliError(`the server doesn't have a resource type ${JSON.stringify(text)}`);
      } catch (error) {
        if (error instanceof CliError || error instanceof KubeApiError || config.signal?.aborted) throw error;
        config.onRetry?.(error as Error, delay);
        await sleep(delay, config.signal);
        delay = Math.min(delay * 2, 30_000);
      }
    }
  } finally {
    context.closeIdleConnections();
  }
}

/** `deployments.v1.apps` → name, version, group; `pods` → name only. Lower-cased unless it looks like a Kind. */
export function splitResourceText(text: string): { name: string; version?: string; group?: string } {
  const trimmed = text.trim();
  const dot = trimmed.indexOf('.');
  if (dot < 0) return { name: trimmed };
  const name = trimmed.slice(0, dot);
  const rest = trimmed.slice(dot + 1);
  const versioned = /^(v\d+(?:(?:alpha|beta)\d+)?)\.(.+)$/.exec(rest);
  return versioned ? { name, version: versioned[1]!, group: versioned[2]! } : { name, group: rest };
}

async function search(context: RequestContext, name: string, group: string | undefined, version: string | undefined, signal: AbortSignal | undefined): Promise<DiscoveredResource | undefined> {
  if (group === undefined || group === '' || group === 'core') {
    const core = await getJson(context, `/api/${version ?? 'v1'}`, signal);
    const found = core === undefined ? undefined : match(core, name, '', version ?? 'v1');
    if (found || group !== undefined) return found;
  }
  const groups = (await getJson(context, '/apis', signal)) as { groups?: Array<{ name?: string; preferredVersion?: { version?: string }; versions?: Array<{ version?: string }> }> } | undefined;
  const candidates = (groups?.groups ?? []).filter((g) => g.name && (group === undefined || g.name === group));
  const lists = await Promise.all(
    candidates.map(async (g) => {
      const v = version ?? g.preferredVersion?.version ?? g.versions?.[0]?.version;
      if (!v || (version !== undefined && !g.versions?.some((x) => x.version === version))) return undefined;
      const list = await getJson(context, `/apis/${g.name}/${v}`, signal);
      return list === undefined ? undefined : match(list, name, g.name!, v);
    }),
  );
  return lists.find((found) => found !== undefined);
}

function match(list: unknown, name: string, group: string, version: string): DiscoveredResource | undefined {
  const resources = ((list as { resources?: ApiResource[] } | null)?.resources ?? []).filter((r) => r.name && !r.name.includes('/') && r.kind);
  const lower = name.toLowerCase();
  const tests: Array<(r: ApiResource) => boolean> = [
    (r) => r.name === lower,
    (r) => r.singularName === lower || (!r.singularName && r.kind!.toLowerCase() === lower),
    (r) => r.shortNames?.includes(lower) ?? false,
    (r) => r.kind!.toLowerCase() === lower,
  ];
  for (const test of tests) {
    const r = resources.find(test);
    if (r) return { group, version, plural: r.name!, kind: r.kind!, namespaced: r.namespaced ?? true };
  }
  return undefined;
}

/** A discovery document, or `undefined` when the server has no such path (404). */
async function getJson(context: RequestContext, path: string, signal: AbortSignal | undefined): Promise<unknown> {
  const request = httpGet<unknown>(context, path, 'application/json', { verb: 'discover', resource: path }, (response, subscriber) => readJson(response, subscriber, undefined, 'discover'));
  try {
    return await firstValue(request, signal);
  } catch (error) {
    if (error instanceof KubeApiError && error.code === 404) return undefined;
    throw error;
  }
}

function firstValue<T>(source: Observable<T>, signal: AbortSignal | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      subscription.unsubscribe();
      reject(signal?.reason);
    };
    const subscription = source.subscribe({
      next: (value) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      },
      error: (error: unknown) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      },
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
