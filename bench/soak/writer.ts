/**
 * The soak's writer, as its own process: churns the namespace at a steady rate with a seeded
 * generator, straight to the API server (no proxy: the writer is the load, not under test).
 *
 * ConfigMaps `cm-<n>` (label `soak/group`): creates, data updates, group moves and deletes, keeping
 * the population near SOAK_OBJECTS. ConfigMapSets `set-<n>` (one write in ten): creates, spec
 * changes, and deletes — only of a set that carries the operator's finalizer, so each such
 * deletion must be cleaned up exactly once (logged as `setDeleted`).
 *
 * A write the API server cannot take (a fault is on) is counted and dropped; the next one goes on.
 * The list of ConfigMaps follows what happened: a failed delete keeps its ConfigMap on the list, a
 * create refused for certain takes it off, so the server's population stays near SOAK_OBJECTS.
 * Appends JSON lines to SOAK_LOG (`writes` every 5 s and at the end); stops on SIGTERM.
 *
 * Environment: KUBECONFIG (admin), SOAK_LOG, SOAK_NAMESPACE, SOAK_SEED, SOAK_RATE, SOAK_OBJECTS,
 * SOAK_SETS, SOAK_FIRST_CM (the next ConfigMap number; the loader made 0 … SOAK_OBJECTS-1).
 */
import { appendFileSync } from 'node:fs';
import { apiClient } from '../cluster/apiClient.js';
import { env } from './processInfo.js';
import { rng } from './rng.js';

const logPath = env('SOAK_LOG');
const namespace = env('SOAK_NAMESPACE');
const random = rng(Number(env('SOAK_SEED')) ^ 0x5eed);
const rate = Number(process.env.SOAK_RATE ?? 200);
const population = Number(env('SOAK_OBJECTS'));
const setTarget = Number(process.env.SOAK_SETS ?? 100);
const log = (entry: Record<string, unknown>): void => appendFileSync(logPath, `${JSON.stringify({ at: Date.now(), replica: 'writer', ...entry })}\n`);
const client = apiClient(env('KUBECONFIG'), 32);
const group = (): string => `g${random.int(10)}`;

const configMaps: number[] = Array.from({ length: population }, (_, i) => i);
let nextConfigMap = Number(env('SOAK_FIRST_CM'));
const sets: number[] = [];
let nextSet = 0;
const counts = { sent: 0, ok: 0, failed: 0, skipped: 0, byOp: {} as Record<string, number> };
const cmPath = (n?: number): string => `/api/v1/namespaces/${namespace}/configmaps${n === undefined ? '' : `/cm-${n}`}`;
const setPath = (n?: number): string => `/apis/demo.rx-informer.dev/v1/namespaces/${namespace}/configmapsets${n === undefined ? '' : `/set-${n}`}`;
const spec = (): Record<string, Record<string, string>> => Object.fromEntries(Array.from({ length: 1 + random.int(3) }, (_, i) => [`k${i}`, { v: String(random.int(1000)) }]));
const removeAt = (list: number[], i: number): number => {
  const [n] = list.splice(i, 1);
  return n!;
};

async function send(op: string, method: string, path: string, body?: unknown, contentType?: string): Promise<number> {
  counts.sent++;
  counts.byOp[op] = (counts.byOp[op] ?? 0) + 1;
  try {
    const { status } = await client.call(method, path, body, contentType);
    if (status < 300) counts.ok++;
    else counts.failed++;
    return status;
  } catch {
    counts.failed++;
    return 0;
  }
}

async function configMapWrite(): Promise<void> {
  const roll = random.next();
  const low = configMaps.length < population * 0.98;
  const high = configMaps.length > population * 1.02;
  if ((roll < 0.25 && !high) || low) {
    const n = nextConfigMap++;
    configMaps.push(n);
    const status = await send('cm-create', 'POST', cmPath(), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${n}`, labels: { 'soak/group': group() } }, data: { v: String(random.int(1e6)) } });
    // Refused for certain (API server shutting down, throttled): not there. Anything else may have
    // been written (an answer lost), so it stays on the list; deleting one that is not there is a 404.
    const at = configMaps.indexOf(n); // a delete may have taken it meanwhile
    if ((status === 503 || status === 429) && at >= 0) configMaps.splice(at, 1);
  } else if ((roll < 0.5 && !low) || high) {
    if (configMaps.length === 0) return;
    const n = removeAt(configMaps, random.int(configMaps.length));
    const status = await send('cm-delete', 'DELETE', cmPath(n));
    // Not deleted (an outage, a timeout): it is still there to delete later. Forgetting it made the
    // population grow by every failed delete (10,000 to 20,000 in the first 30-minute run).
    if (status !== 200 && status !== 202 && status !== 404) configMaps.push(n);
  } else {
    if (configMaps.length === 0) return;
    const n = random.pick(configMaps);
    const patch = random.next() < 0.2 ? { metadata: { labels: { 'soak/group': group() } } } : { data: { v: String(random.int(1e6)) } };
    await send('cm-update', 'PATCH', cmPath(n), patch, 'application/merge-patch+json');
  }
}

async function setWrite(): Promise<void> {
  const roll = random.next();
  if (sets.length < setTarget && (roll < 0.4 || sets.length < setTarget / 2)) {
    const n = nextSet++;
    sets.push(n);
    await send('set-create', 'POST', setPath(), { apiVersion: 'demo.rx-informer.dev/v1', kind: 'ConfigMapSet', metadata: { name: `set-${n}` }, spec: { configMaps: spec() } });
  } else if (roll < 0.7 && sets.length > 0) {
    // Each of k0…k2 set or removed: a child is created, updated or deleted.
    const configMaps = Object.fromEntries(['k0', 'k1', 'k2'].map((key) => [key, random.next() < 0.3 ? null : { v: String(random.int(1000)) }]));
    await send('set-update', 'PATCH', setPath(random.pick(sets)), { spec: { configMaps } }, 'application/merge-patch+json');
  } else if (sets.length > 0) {
    const i = random.int(sets.length);
    const n = sets[i]!;
    const { status, text } = await client.call('GET', setPath(n)).catch(() => ({ status: 0, text: '' }));
    const guarded = status === 200 && (JSON.parse(text) as { metadata?: { finalizers?: string[] } }).metadata?.finalizers?.includes('demo.rx-informer.dev/cleanup');
    if (!guarded) return; // not yet taken up by the operator: deleting it would need no cleanup
    removeAt(sets, i);
    const deleted = await send('set-delete', 'DELETE', setPath(n));
    if (deleted === 200 || deleted === 202) log({ event: 'setDeleted', key: `${namespace}/set-${n}` });
    else log({ event: 'setDeleteUnsure', key: `${namespace}/set-${n}`, status: deleted });
  }
}

// Writes at `rate` per second, each started on its tick; at most 64 in flight (a fault can hold many).
let inFlight = 0;
let stopped = false;
const started = Date.now();
let ticks = 0;
const tick = (): void => {
  if (stopped) return;
  const due = Math.floor(((Date.now() - started) / 1000) * rate);
  while (ticks < due) {
    ticks++;
    if (inFlight >= 64) {
      counts.skipped++;
      continue;
    }
    inFlight++;
    void (random.next() < 0.1 ? setWrite() : configMapWrite()).finally(() => inFlight--);
  }
  setTimeout(tick, 5);
};
tick();
const reporter = setInterval(() => log({ event: 'writes', ...counts }), 5_000);

process.once('SIGTERM', () => {
  stopped = true;
  clearInterval(reporter);
  const drained = (): void => {
    if (inFlight > 0) return void setTimeout(drained, 20);
    log({ event: 'writes', final: true, ...counts });
    client.close();
    process.exit(0);
  };
  drained();
});
