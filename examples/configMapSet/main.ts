/**
 * Runs the ConfigMapSet operator (configMapSet.ts).
 *
 *   npx tsx examples/configMapSet/main.ts --demo
 *     against an in-process API server: creates a set, waits for its ConfigMaps and Ready status,
 *     edits a ConfigMap by hand and watches it put back, changes the spec, deletes the set and
 *     watches the finalizer hold it until its ConfigMaps are gone; prints each step, then exits.
 *
 *   npx tsx examples/configMapSet/main.ts [--install-crd] [--namespace NS] [--probe-port 8081]
 *     against the cluster of $KUBECONFIG (or ~/.kube/config, or in-cluster) until SIGINT/SIGTERM,
 *     which stop it gracefully (a second signal stops it at once). /healthz and /readyz on the port.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { parseArgs } from 'node:util';
import { fromEvent, merge, Subject, take } from 'rxjs';
import { ControllerError } from 'rx-informer/controller';
import { createTestApiServer, type TestApiServer } from 'rx-informer/test-server';
import { configMapSetOperator, configMapSetResource, finalizerName, installCrd, type ConfigMapSet } from './configMapSet.js';

const { values } = parseArgs({ options: { demo: { type: 'boolean' }, 'install-crd': { type: 'boolean' }, namespace: { type: 'string' }, 'probe-port': { type: 'string' } } });

async function run(): Promise<void> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  if (values['install-crd']) await installCrd(kubeConfig);
  const signals = merge(fromEvent(process, 'SIGINT'), fromEvent(process, 'SIGTERM'));
  const subscription = configMapSetOperator({
    kubeConfig,
    ...(values.namespace ? { namespace: values.namespace } : {}),
    probes: { port: Number(values['probe-port'] ?? 8081) },
    onProbes: (server) => console.log(`probes on ${server.url}/healthz and /readyz`),
    shutdownOn: signals.pipe(take(1)),
    log: (line) => console.log(line),
  }).subscribe({
    next: (outcome) => outcome.result !== 'success' && console.error(`${outcome.key}: ${outcome.result}: ${String(outcome.error)}`),
    error: (error: unknown) => {
      console.error(String(error));
      process.exitCode = 1;
    },
    complete: () => console.log('stopped'),
  });
  signals.pipe(take(2)).subscribe({ complete: () => subscription.unsubscribe() }); // the second signal: at once
}

async function demo(): Promise<void> {
  const server = await createTestApiServer({ resources: [configMapSetResource] });
  const stop = new Subject<void>();
  console.log(`demo: in-process API server at ${server.url}`);
  const done = new Promise<void>((resolve, reject) => {
    configMapSetOperator({ kubeConfig: server.kubeConfig, namespace: 'demo', shutdownOn: stop, log: (line) => console.log(`operator: ${line}`) }).subscribe({
      next: (outcome) => {
        if (outcome.result === 'success') return;
        const conflict = outcome.error instanceof ControllerError && outcome.error.reason === 'conflict';
        console.log(conflict ? `operator: ${outcome.key}: write conflict (read from a stale cache), retried` : `operator: ${outcome.key} ${outcome.result}: ${String(outcome.error)}`);
      },
      error: reject,
      complete: resolve,
    });
  });
  try {
    server.create('configmapsets.demo.rx-informer.dev', { apiVersion: 'demo.rx-informer.dev/v1', kind: 'ConfigMapSet', metadata: { name: 'web', namespace: 'demo' }, spec: { configMaps: { app: { mode: 'fast' }, db: { url: 'postgres://db' } } } });
    await until(server, () => ready(server)?.status?.configMaps === 2);
    console.log(`web: Ready, ${ready(server)!.status!.configMaps} ConfigMaps, finalizer ${ready(server)!.metadata!.finalizers!.join(',')}`);

    server.patch('configmaps', 'demo', 'web-app', { data: { mode: 'slow' } });
    console.log('edited web-app by hand: mode=slow');
    await until(server, () => data(server, 'web-app')?.['mode'] === 'fast');
    console.log('web-app put back: mode=fast');

    server.patch('configmapsets.demo.rx-informer.dev', 'demo', 'web', { spec: { configMaps: { db: null, cache: { size: '64Mi' } } } });
    await until(server, () => data(server, 'web-db') === undefined && data(server, 'web-cache') !== undefined);
    console.log(`spec changed: ConfigMaps ${server.list('configmaps', 'demo').map((c) => c.metadata!.name).join(', ')}`);

    server.delete('configmapsets.demo.rx-informer.dev', 'demo', 'web');
    await until(server, () => set(server) === undefined);
    console.log(`web deleted after its ConfigMaps: ${server.list('configmaps', 'demo').length} left`);
    const reasons = server.list('events.events.k8s.io', 'demo').map((e) => `${String(e['reason'])}${e['series'] ? `x${(e['series'] as { count: number }).count}` : ''}`);
    console.log(`events: ${reasons.sort().join(', ')}`);
  } finally {
    stop.next();
    await done;
    await server.close();
  }
  console.log('demo: done');
}

const set = (server: TestApiServer) => server.get('configmapsets.demo.rx-informer.dev', 'demo', 'web') as ConfigMapSet | undefined;
const ready = (server: TestApiServer) => {
  const current = set(server);
  return current?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') && current.metadata?.finalizers?.includes(finalizerName) ? current : undefined;
};
const data = (server: TestApiServer, name: string) => server.get('configmaps', 'demo', name)?.['data'] as Record<string, string> | undefined;

/** Waits for `condition` (checked after every request the server answers), up to 10 s. */
async function until(server: TestApiServer, condition: () => unknown): Promise<void> {
  await server.waitForRequest(() => Boolean(condition()), 10_000);
}

if (values.demo) await demo();
else await run();
