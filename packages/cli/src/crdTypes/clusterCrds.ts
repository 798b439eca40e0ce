import type { KubeConfig } from '@kubernetes/client-node';
import { Observable, firstValueFrom } from 'rxjs';
import { isCrd, type Crd } from './crd.js';

/**
 * The CustomResourceDefinitions a live cluster has: one paginated list of
 * `apiextensions.k8s.io/v1` `customresourcedefinitions` (through rx-informer's `listWatch`, which
 * is stopped once the list is done). A one-shot command does not wait for a server that cannot be
 * reached: the first failure of the list (refused, forbidden, unreachable) rejects.
 *
 * @param kubeConfig the cluster and credentials.
 * @param signal stops the request.
 * @returns the CRDs, in the server's order (by name).
 */
export async function clusterCrds(kubeConfig: KubeConfig, signal?: AbortSignal): Promise<Crd[]> {
  // Loaded here, so that the files-only way (and `rx-informer-cli/crd-types` for generateCrdTypes) loads no HTTP client.
  const { listWatch } = await import('rx-informer');
  const crds = new Observable<Crd[]>((subscriber) => {
    const found: Crd[] = [];
    return listWatch<unknown>(
      kubeConfig,
      { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' },
      {
        fatalErrors: 'permanent',
        onStatus: (status) => {
          if (status.type === 'ERROR') subscriber.error(status.error);
        },
        ...(signal !== undefined ? { signal } : {}),
      },
    ).subscribe({
      next: (event) => {
        if (event.type === 'LIST_PAGE') found.push(...event.items.filter(isCrd));
        if (event.type === 'LIST_DONE') {
          subscriber.next(found);
          subscriber.complete();
        }
      },
      error: (error: unknown) => subscriber.error(error),
    });
  });
  return await firstValueFrom(crds);
}
