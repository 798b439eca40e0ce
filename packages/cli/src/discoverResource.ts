import type { KubeConfig } from '@kubernetes/client-node';
import { firstValueFrom, take, type Observable } from 'rxjs';
import { createBackoff, discoverResource as discover, KubeApiError, type BackoffConfig, type DiscoveredResource } from 'rx-informer';
import { isTlsFailure } from './failureText.js';

export type { DiscoveredResource };

/** Options of {@link discoverResource}. */
export interface DiscoverResourceConfig {
  /** Told about each failed attempt before the next one (the server cannot be reached, for example). */
  readonly onRetry?: (error: Error, delayMs: number) => void;
  /** Stops the retries; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** The delays between attempts when the server cannot be reached: the reflector's backoff, by default its defaults (0.8 s doubling to 30 s, with jitter). */
  readonly backoff?: BackoffConfig;
}

/**
 * Resolves what a user types after `kubectl get` through the library's {@link discover} (plural,
 * singular, short name or kind, optionally with `.group` or `.version.group`), retrying while the
 * server cannot be reached (with the reflector's backoff, as `watch` retries its list and watch),
 * until `signal` aborts. What retrying cannot fix is thrown at once: the
 * server's answer (an unknown resource, a server that is not a Kubernetes API server, 401, 403) and
 * a TLS failure.
 *
 * @param kubeConfig the cluster to ask.
 * @param text the resource as typed.
 * @param config retry reporting and cancellation.
 * @returns the resource.
 * @throws {KubeApiError} when discovery is refused or finds nothing; {@link TransportError} for TLS.
 */
export async function discoverResource(kubeConfig: KubeConfig, text: string, config: DiscoverResourceConfig = {}): Promise<DiscoveredResource> {
  const backoff = createBackoff(config.backoff, Date.now);
  for (;;) {
    try {
      return await firstValueUntil(discover(kubeConfig, text), config.signal);
    } catch (error) {
      if (error instanceof KubeApiError || isTlsFailure(error) || config.signal?.aborted) throw error;
      const { delay } = backoff.next();
      config.onRetry?.(error as Error, delay);
      await sleep(delay, config.signal);
    }
  }
}

/** The first value of `source`; when `signal` aborts first, unsubscribes (aborting the request) and rejects with its reason. */
function firstValueUntil<T>(source: Observable<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return firstValueFrom(source);
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      subscription.unsubscribe();
      reject(signal.reason);
    };
    const subscription = source.pipe(take(1)).subscribe({
      next: (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      error: (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    });
    signal.addEventListener('abort', onAbort, { once: true });
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
