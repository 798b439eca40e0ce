/**
 * Helpers of the end-to-end suite against a real kube-apiserver (test/cluster/env.sh run, or an
 * existing cluster through KUBECONFIG_E2E). Writes go through client-node's CoreV1Api, a client
 * nobody here wrote.
 */
import { CoreV1Api, KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { firstValueFrom } from 'rxjs';
import type { ResourceClient } from '../../../src/client/resourceClient.js';
import type { ListerWatcher } from '../../../src/sources/listerWatcher.js';
import type { KubeObject } from '../../../src/store/kubeObject.js';

const exec = promisify(execFile);

export function kubeConfig(): KubeConfig {
  const path = process.env.KUBECONFIG_E2E ?? process.env.KUBECONFIG;
  if (!path) throw new Error('[e2e] no cluster: run through `npm run test:cluster` (or `bash test/cluster/env.sh run -- …`) or set KUBECONFIG_E2E');
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  return kc;
}

export const api = (kc: KubeConfig = kubeConfig()): CoreV1Api => kc.makeApiClient(CoreV1Api);

let counter = 0;
/** A fresh namespace for one test (namespaces never finish deleting without a controller manager). */
export async function freshNamespace(core: CoreV1Api, prefix: string): Promise<string> {
  const name = `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`;
  await core.createNamespace({ body: { metadata: { name } } });
  return name;
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(runners);
}

export function configMapBody(namespace: string, name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}): V1ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data };
}

/** Polls until `condition` holds; rejects naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`[e2e] timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** True when this run owns the control plane (faults can be injected). */
export const ownsCluster = (): boolean => process.env.KUBECONFIG_E2E === undefined;

/**
 * Runs a fault sub-command (restart-apiserver, kill-apiserver, start-apiserver, bump-etcd): through
 * test/cluster/runE2e.ts's control URL when the suite runs there (npm run test:cluster, on
 * rx-informer/envtest), else as a sub-command of test/cluster/env.sh (`env.sh run -- npx ava …`).
 */
export async function cluster(command: string): Promise<string> {
  if (!ownsCluster()) throw new Error(`[e2e] cannot ${command}: KUBECONFIG_E2E names a cluster this run does not own`);
  const control = process.env.CLUSTER_CONTROL_URL;
  if (control) {
    const response = await fetch(`${control}/${command}`, { method: 'POST', signal: AbortSignal.timeout(180_000) });
    const text = await response.text();
    if (!response.ok) throw new Error(`[e2e] ${command} failed: ${text}`);
    return text.trim();
  }
  const { stdout } = await exec('bash', ['test/cluster/env.sh', command], { cwd: new URL('../../../', import.meta.url), timeout: 180_000 });
  return stdout.trim();
}

/** The `ns/name → resourceVersion` of every ConfigMap in `namespace`, by a fresh LIST. */
export async function listRVs(core: CoreV1Api, namespace: string, labelSelector?: string): Promise<Map<string, string>> {
  const list = await core.listNamespacedConfigMap({ namespace, ...(labelSelector ? { labelSelector } : {}) });
  return new Map(list.items.map((cm) => [`${namespace}/${cm.metadata!.name!}`, cm.metadata!.resourceVersion!]));
}

export function sameRVs(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([key, rv]) => b.get(key) === rv);
}

/** Every object of a collection by paged LISTs of 2,000 (quorum reads: no resourceVersion). */
export async function listAllPages(lister: ListerWatcher<KubeObject>): Promise<KubeObject[]> {
  const items: KubeObject[] = [];
  let token: string | undefined;
  do {
    const page = await firstValueFrom(lister.list({ limit: 2_000, ...(token ? { continue: token } : {}) }));
    items.push(...page.items);
    token = page.continue || undefined;
  } while (token);
  return items;
}

/**
 * Writes of "other people" while `running()`: a merge patch of a random `cm-<i>` every 20 ms or
 * so, a `late-<n>` ConfigMap created every 10th write and an older one deleted every 10th; tells
 * `wrote` how many writes each step sent.
 */
export async function churnConfigMaps(writer: ResourceClient, namespace: string, objectCount: number, running: () => boolean, wrote: (count: number) => number): Promise<void> {
  let created = 0;
  let total = 0;
  const ref = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name });
  while (running()) {
    const writes: Array<Promise<unknown>> = [writer.patch(ref(`cm-${Math.floor(Math.random() * objectCount)}`), { data: { v: String(total) } }, { type: 'merge' })];
    if (total % 10 === 0) writes.push(writer.create(configMapBody(namespace, `late-${created++}`, {}, { v: '0' }) as KubeObject));
    if (total % 10 === 5 && created > 2) writes.push(writer.delete(ref(`late-${created - 2}`)));
    total = wrote(writes.length);
    await Promise.allSettled(writes);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
