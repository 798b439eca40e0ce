import { asyncScheduler, interval, type SchedulerLike } from 'rxjs';
import type { JsonObject, TestApiServer } from 'rx-informer/test-server';

/** Options of {@link demoCluster}. */
export interface DemoClusterConfig {
  /** Pods to seed (spread over the namespaces' apps and the nodes). */
  readonly pods: number;
  readonly namespaces?: number;
  readonly nodes?: number;
  /** Seed of the pseudo-random choices, so a run can be repeated. */
  readonly seed?: number;
  /** Clock and timer of the churn; `asyncScheduler` by default. */
  readonly scheduler?: SchedulerLike;
}

/** A seeded cluster that can be kept busy. */
export interface DemoCluster {
  readonly namespaces: readonly string[];
  readonly nodes: readonly string[];
  readonly pods: number;
  /**
   * Starts the churn: about `rate` watch events per second — rolling updates (new pods with a new
   * image replace old ones, which are deleted; the new ones go from ContainerCreating to Running),
   * container restarts and readiness flips, label changes. The pod count stays about the same.
   * @returns a function that stops it.
   */
  churn(rate: number): () => void;
}

const namespaceNames = [
  'default', 'kube-system', 'monitoring', 'ingress', 'payments', 'checkout', 'catalog', 'search', 'accounts', 'orders',
  'shipping', 'inventory', 'reviews', 'recommend', 'notify', 'media', 'auth', 'billing', 'analytics', 'staging',
];
const appNames = ['api', 'web', 'worker', 'cache', 'gateway', 'scheduler', 'indexer', 'frontend', 'consumer', 'exporter'];
const tickMs = 50;

/**
 * Seeds `server` with namespaces, nodes and pods like a busy production cluster (pods owned by
 * per-namespace apps, placed on nodes, with images, IPs and container statuses), and returns a
 * handle to start the churn. The seeding is one bulk write per resource (no watch events).
 *
 * @param server the in-process test API server.
 * @param config how many pods, namespaces and nodes.
 */
export function demoCluster(server: TestApiServer, config: DemoClusterConfig): DemoCluster {
  const clock = config.scheduler ?? asyncScheduler;
  const random = mulberry32(config.seed ?? 20261129);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const namespaces = Array.from({ length: config.namespaces ?? 20 }, (_, i) => namespaceNames[i] ?? `team-${i}`);
  const nodes = Array.from({ length: config.nodes ?? 50 }, (_, i) => `node-${String(i + 1).padStart(2, '0')}`);
  const apps = namespaces.flatMap((namespace, i) =>
    appNames.slice(0, 3 + (i % 5)).map((name) => ({ namespace, name, revision: 1, hash: hashOf(random) })),
  );
  const live = new Map<string, { namespace: string; name: string; app: (typeof apps)[number] }>();
  const suffix = (): string => Array.from({ length: 5 }, () => 'bcdfghjklmnpqrstvwxz2456789'[Math.floor(random() * 27)]).join('');

  const podOf = (app: (typeof apps)[number], running: boolean): JsonObject => {
    const name = `${app.name}-${app.hash}-${suffix()}`;
    const image = `registry.example.com/${app.namespace}/${app.name}:1.${app.revision}.0`;
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: app.namespace,
        labels: { app: app.name, 'pod-template-hash': app.hash, tier: app.name === 'web' || app.name === 'frontend' ? 'frontend' : 'backend' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${app.name}-${app.hash}`, uid: `rs-${app.namespace}-${app.name}-${app.hash}`, controller: true }],
      },
      spec: { nodeName: pick(nodes), containers: [{ name: app.name, image }], restartPolicy: 'Always' },
      status: running ? runningStatus(app.name, image, 0, random) : pendingStatus(app.name, image),
    };
  };

  server.seed('namespaces', namespaces.map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase: 'Active' } })));
  server.seed(
    'nodes',
    nodes.map((name) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${'abc'[Number(name.slice(-2)) % 3]}` } },
      status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.34.0' } },
    })),
  );
  const pods = Array.from({ length: config.pods }, (_, i) => podOf(apps[i % apps.length]!, true));
  server.seed('pods', pods);
  for (const [i, pod] of pods.entries()) {
    const meta = pod['metadata'] as { name: string; namespace: string };
    live.set(`${meta.namespace}/${meta.name}`, { namespace: meta.namespace, name: meta.name, app: apps[i % apps.length]! });
  }

  return {
    namespaces,
    nodes,
    pods: config.pods,
    churn(rate) {
      let budget = 0;
      const starting: Array<{ at: number; key: string; image: string; app: string }> = [];
      const keys = (): string[] => [...live.keys()];
      let keyCache: string[] = keys();
      let keyCacheAge = 0;
      let last = clock.now();
      const tick = (): void => {
        // By elapsed time, not by ticks, so a busy event loop does not slow the churn (up to 1 s behind).
        const now = clock.now();
        budget = Math.min(budget + (rate * (now - last)) / 1000, rate);
        last = now;
        if (++keyCacheAge > 10) (keyCache = keys()), (keyCacheAge = 0);
        while (budget >= 1 && starting.length > 0 && starting[0]!.at <= now) {
          const due = starting.shift()!;
          const pod = live.get(due.key);
          if (pod) safely(() => server.patch('pods', pod.namespace, pod.name, { status: runningStatus(due.app, due.image, 0, random) }));
          budget--;
        }
        while (budget >= 1 && keyCache.length > 0) {
          const key = pick(keyCache);
          const pod = live.get(key);
          if (!pod) {
            budget -= 0.1;
            continue;
          }
          const roll = random();
          if (roll < 0.45) {
            // Rolling update: a new pod of the app's current revision replaces this one.
            if (random() < 0.02) (pod.app.revision++, (pod.app.hash = hashOf(random)));
            const next = podOf(pod.app, false);
            const created = safely(() => server.create('pods', next));
            safely(() => server.delete('pods', pod.namespace, pod.name));
            live.delete(key);
            if (created) {
              const meta = next['metadata'] as { name: string; namespace: string };
              const newKey = `${meta.namespace}/${meta.name}`;
              live.set(newKey, { namespace: meta.namespace, name: meta.name, app: pod.app });
              keyCache.push(newKey);
              const image = ((next['spec'] as { containers: Array<{ image: string }> }).containers[0]!).image;
              starting.push({ at: now + 500 + random() * 2500, key: newKey, image, app: pod.app.name });
            }
            budget -= 2;
          } else if (roll < 0.8) {
            const restarts = Math.floor(random() * 4);
            const ready = random() > 0.1;
            const image = `registry.example.com/${pod.app.namespace}/${pod.app.name}:1.${pod.app.revision}.0`;
            const status = ready ? runningStatus(pod.app.name, image, restarts, random) : crashStatus(pod.app.name, image, restarts + 1);
            safely(() => server.patch('pods', pod.namespace, pod.name, { status }));
            budget--;
          } else {
            safely(() => server.patch('pods', pod.namespace, pod.name, { metadata: { labels: { 'rollout-step': String(Math.floor(random() * 10)) } } }));
            budget--;
          }
        }
      };
      const timer = interval(tickMs, clock).subscribe(tick);
      return () => timer.unsubscribe();
    },
  };
}

function runningStatus(name: string, image: string, restartCount: number, random: () => number): JsonObject {
  return {
    phase: 'Running',
    podIP: `10.${Math.floor(random() * 250)}.${Math.floor(random() * 250)}.${Math.floor(random() * 250)}`,
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: [{ name, image, ready: true, restartCount, state: { running: { startedAt: new Date().toISOString() } } }],
  };
}

function pendingStatus(name: string, image: string): JsonObject {
  return {
    phase: 'Pending',
    conditions: [{ type: 'Ready', status: 'False' }],
    containerStatuses: [{ name, image, ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }],
  };
}

function crashStatus(name: string, image: string, restartCount: number): JsonObject {
  return {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'False' }],
    containerStatuses: [{ name, image, ready: false, restartCount, state: { waiting: { reason: 'CrashLoopBackOff' } } }],
  };
}

function hashOf(random: () => number): string {
  return Math.floor(random() * 0xffffffff).toString(16).padStart(8, '0').slice(0, 10);
}

function safely<T>(write: () => T): T | undefined {
  try {
    return write();
  } catch {
    return undefined; // a conflict or a vanished object: the churn just moves on
  }
}

/** A small seeded PRNG (mulberry32). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
