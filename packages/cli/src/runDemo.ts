import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApiServer } from 'rx-informer/test-server';
import { demoCluster } from './demoCluster.js';
import type { CliOutput } from './liveScreen.js';
import type { DemoCommand } from './parseCliArgs.js';
import { runWatch } from './runWatch.js';

/** What {@link runDemo} needs besides the parsed `demo` command. */
export interface RunDemoConfig extends Omit<DemoCommand, 'command' | 'noColor'> {
  /** Colours on a terminal (default true). */
  readonly color?: boolean;
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** Aborting it ends the demo (Ctrl-C). */
  readonly signal: AbortSignal;
}

/**
 * `rx-informer demo`: starts the in-process test API server, seeds it with namespaces, nodes and
 * pods, keeps it busy with churn, and runs `watch pods -A --index node=.spec.nodeName` against it.
 * Ends after `seconds`, or when `signal` aborts; the server is closed either way.
 *
 * @param config pods, churn rate, duration, output and streams.
 * @returns the exit code of the watch (0 when it ran until told to stop).
 */
export async function runDemo(config: RunDemoConfig): Promise<number> {
  const server = await createTestApiServer({ changeLogSize: 100_000 });
  // Its kubeconfig as a file, for kubectl or a second rx-informer beside the demo; removed at the end.
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-demo-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await server.writeKubeConfig(kubeconfig);
  const stopChurn: Array<() => void> = [];
  const stop = new AbortController();
  const abort = (): void => stop.abort(config.signal.reason);
  config.signal.addEventListener('abort', abort, { once: true });
  const deadline = config.seconds === undefined ? undefined : setTimeout(() => stop.abort(new Error('time is up')), config.seconds * 1000);
  try {
    const cluster = demoCluster(server, { pods: config.pods });
    stopChurn.push(cluster.churn(config.rate));
    const n = (value: number): string => value.toLocaleString('en-US');
    return await runWatch({
      kubeConfig: server.kubeConfig,
      resource: 'pods',
      allNamespaces: true,
      indexes: [{ name: 'node', path: '.spec.nodeName' }],
      metadataOnly: false,
      requestTimeoutMs: 0,
      output: config.output,
      watchEvents: config.watchEvents,
      noHeaders: config.noHeaders,
      ...(config.color !== undefined ? { color: config.color } : {}),
      stdout: config.stdout,
      stderr: config.stderr,
      signal: stop.signal,
      banner: [
        `demo: in-process API server at ${server.url} · ${n(cluster.namespaces.length)} namespaces · ${n(cluster.nodes.length)} nodes · ${n(cluster.pods)} pods · churn ~${n(config.rate)} events/s`,
        `kubeconfig: ${kubeconfig} (KUBECONFIG=${kubeconfig} kubectl get pods -A, while the demo runs)`,
        'on a cluster: rx-informer watch pods -A --index node=.spec.nodeName',
      ],
    });
  } finally {
    clearTimeout(deadline);
    config.signal.removeEventListener('abort', abort);
    for (const stopIt of stopChurn) stopIt();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}
