/**
 * The soak's plain informers, as their own process, through their own fault proxy
 * (SOAK_KUBECONFIG): the ConfigMaps of SOAK_NAMESPACE indexed by their `soak/group` label, and the
 * ConfigMapSets, from one informer factory. Appends JSON lines to SOAK_LOG: every status an
 * informer reports and a memory sample every 10 s (with the count of changes delivered). Prints
 * to stdout, for the orchestrator, the first sight of each probe it writes (recovery times).
 * Reads commands from stdin, one JSON object a line: `{"cmd":"dump","path":…}` writes each cache
 * as key → resourceVersion (and the index's sizes) to the file and prints `dumped`;
 * `{"cmd":"stop"}` disposes the factory, logs what is still open (`leaks`) and exits.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { appendFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { informerFactory, stripManagedFields, type KubeObject } from 'rx-informer';
import { activeHandles, env, memorySample } from './processInfo.js';

const logPath = env('SOAK_LOG');
const namespace = env('SOAK_NAMESPACE');
const log = (entry: Record<string, unknown>): void => appendFileSync(logPath, `${JSON.stringify({ at: Date.now(), replica: 'informers', ...entry })}\n`);

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(env('SOAK_KUBECONFIG'));
const factory = informerFactory(kubeConfig, { transform: stripManagedFields });
const byGroup = (cm: KubeObject): string[] => [cm.metadata?.labels?.['soak/group'] ?? 'none'];
const configMaps = factory.informer<KubeObject & { data?: Record<string, string> }>({ version: 'v1', plural: 'configmaps', namespace }, { indexers: { group: byGroup } });
const sets = factory.informer({ apiVersion: 'demo.rx-informer.dev/v1', kind: 'ConfigMapSet', namespace });

const subscriptions = [
  configMaps.status$.subscribe((status) => log({ event: 'status', informer: 'configmaps', status: status.type, ...('reason' in status ? { reason: status.reason } : {}) })),
  sets.status$.subscribe((status) => log({ event: 'status', informer: 'sets', status: status.type, ...('reason' in status ? { reason: status.reason } : {}) })),
  configMaps.connect(),
  sets.connect(),
];
let lastProbe = -1;
let events = 0;
subscriptions.push(
  sets.changes$.subscribe(() => events++),
  configMaps.changes$.subscribe((change) => {
    events++;
    if (change.key !== `${namespace}/probe`) return;
    const n = Number(configMaps.snapshot.get(namespace, 'probe')?.data?.['n'] ?? -1);
    // The orchestrator reads probe sightings from stdout as they happen (recovery times).
    if (n > lastProbe) process.stdout.write(`${JSON.stringify({ event: 'probe', n, at: Date.now() })}\n`);
    lastProbe = Math.max(lastProbe, n);
  }),
);

const sampler = setInterval(() => log({ event: 'memory', cached: configMaps.snapshot.size + sets.snapshot.size, events, ...memorySample() }), 10_000);
log({ event: 'ready', pid: process.pid });

const rvs = (snapshot: Iterable<readonly [string, KubeObject]>): Record<string, string> => Object.fromEntries([...snapshot].map(([key, object]) => [key, object.metadata?.resourceVersion ?? '']));

createInterface({ input: process.stdin }).on('line', (line) => {
  const command = JSON.parse(line) as { cmd: 'dump'; path: string } | { cmd: 'stop' };
  if (command.cmd === 'dump') {
    const groups = Object.fromEntries(configMaps.snapshot.indexValues('group').map((group) => [group, configMaps.snapshot.indexKeys('group', group).length]));
    writeFileSync(command.path, JSON.stringify({ configmaps: rvs(configMaps.snapshot.entries()), sets: rvs(sets.snapshot.entries()), groups }));
    process.stdout.write(`${JSON.stringify({ event: 'dumped', path: command.path, events })}\n`);
    return;
  }
  clearInterval(sampler);
  for (const subscription of subscriptions) subscription.unsubscribe();
  factory.dispose();
  process.stdin.destroy();
  void activeHandles(2_000).then((open) => {
    log({ event: 'leaks', open });
    process.exit(0);
  });
});
