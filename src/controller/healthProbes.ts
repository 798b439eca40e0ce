import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Observable } from 'rxjs';
import { describe, optionChecks } from '../options/optionChecks.js';

/**
 * One health check: passes by returning nothing (or `true`); fails by returning `false`, or by
 * throwing or rejecting (the error's message is the reason) (controller-runtime's `healthz.Checker`).
 */
export type HealthCheck = () => void | boolean | Promise<void | boolean>;

/** Options of {@link serveHealthProbes}. */
export interface HealthProbesConfig {
  /** Port to listen on; `0` picks a free one (see the emitted `port`). */
  readonly port: number;
  /** Address to listen on. Default `0.0.0.0`, so the kubelet reaches it on the Pod's IP. */
  readonly host?: string;
  /** Checks of `/healthz` (liveness). `ping` is always there: it passes whenever the event loop gets to answer. */
  readonly liveness?: Readonly<Record<string, HealthCheck>>;
  /** Checks of `/readyz` (readiness), e.g. `{ informers: informersReady([...]) }`. `ping` is there too. */
  readonly readiness?: Readonly<Record<string, HealthCheck>>;
}

/** The probe server, once it listens. */
export interface HealthProbeServer {
  /** `http://<host>:<port>`. */
  readonly url: string;
  /** The port it listens on: the one asked for, or the free one picked for `0`. */
  readonly port: number;
}

/**
 * Serves `/healthz` and `/readyz` as controller-runtime's `pkg/healthz` does: `200 ok` when every
 * check passes, `500` with one line per check (`[+]ping ok`, `[-]informers failed: reason
 * withheld`) otherwise; `?verbose` lists the checks on success too; `?exclude=<name>` skips one
 * (repeatable); `/healthz/<name>` runs one check and shows its reason. Anything else is a 404.
 *
 * Cold: subscribing starts listening and emits the server once it listens; unsubscribing closes
 * it (and its connections). A failure to listen (the port is taken) is the error. So the server
 * lives exactly as long as a subscription: `await firstValueFrom(serveHealthProbes(…))` resolves
 * with the URL and closes the server at once (`firstValueFrom` unsubscribes after the first value;
 * the next probe is refused). Hold a subscription, and read the URL from a replay of it, as below.
 *
 * ## Example
 * ```ts
 * import { connectable, firstValueFrom, ReplaySubject } from 'rxjs';
 * import { informersReady, serveHealthProbes, type HealthProbeServer } from 'rx-informer/controller';
 * import type { Informer, KubeObject } from 'rx-informer';
 *
 * declare const sets: Informer<KubeObject>; // assuming: the controller's informers
 * const probes = connectable(serveHealthProbes({ port: 8081, readiness: { informers: informersReady([sets]) } }), {
 *   connector: () => new ReplaySubject<HealthProbeServer>(1),
 * });
 * const listening = probes.connect(); // serves until listening.unsubscribe()
 * const { url } = await firstValueFrom(probes); // reads the replay: the server stays up
 * console.log(`probes on ${url}`);
 * ```
 *
 * @param config port, host and the checks.
 * @returns a cold Observable of the listening server.
 */
export function serveHealthProbes(config: HealthProbesConfig): Observable<HealthProbeServer> {
  const { port, host, liveness, readiness } = resolveHealthProbesConfig(config);
  const endpoints: Readonly<Record<string, Readonly<Record<string, HealthCheck>>>> = {
    healthz: { ping: () => undefined, ...liveness },
    readyz: { ping: () => undefined, ...readiness },
  };
  return new Observable<HealthProbeServer>((subscriber) => {
    const server = createServer((req, res) => void answer(endpoints, req, res));
    server.on('error', (error) => subscriber.error(error));
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      subscriber.next({ url: `http://${shown}:${address.port}`, port: address.port });
    });
    return () => {
      server.close();
      server.closeAllConnections();
    };
  });
}

/** Checks the config at call time (one wording, `optionChecks`) and fills in every default in one literal. */
function resolveHealthProbesConfig(config: HealthProbesConfig): Required<HealthProbesConfig> {
  const check = optionChecks('serveHealthProbes', config, false);
  const { port } = config;
  if (!(Number.isInteger(port) && port >= 0 && port < 65_536)) check.fail(`port must be an integer from 0 to 65535, got ${describe(port)}`);
  const resolved = { port, host: check.nonEmptyString('host', config.host) ?? '0.0.0.0', liveness: config.liveness ?? {}, readiness: config.readiness ?? {} };
  for (const group of ['liveness', 'readiness'] as const) {
    for (const [name, probe] of Object.entries(resolved[group])) {
      check.func(`${group} check ${name}`, probe);
      if (name === '' || name.includes('/')) check.fail(`a check name cannot be empty or contain "/", got ${describe(name)}`);
    }
  }
  return resolved;
}

async function answer(endpoints: Readonly<Record<string, Readonly<Record<string, HealthCheck>>>>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const [endpoint, single, ...extra] = url.pathname.split('/').filter(Boolean);
  const checks = endpoint === undefined ? undefined : endpoints[endpoint];
  if (checks === undefined || extra.length > 0 || (req.method !== 'GET' && req.method !== 'HEAD')) return send(res, 404, '404 page not found\n');
  if (single !== undefined) {
    const check = checks[single];
    if (check === undefined) return send(res, 404, '404 page not found\n');
    const failure = await run(check);
    return failure === undefined ? send(res, 200, 'ok') : send(res, 500, `internal server error: ${failure}\n`);
  }
  const excluded = new Set(url.searchParams.getAll('exclude').flatMap((value) => value.split(',')).filter(Boolean));
  const unknown = [...excluded].filter((name) => !(name in checks));
  const results = await Promise.all(Object.entries(checks).filter(([name]) => !excluded.has(name)).map(async ([name, check]) => [name, await run(check)] as const));
  const failed = results.some(([, failure]) => failure !== undefined);
  const verbose = url.searchParams.has('verbose');
  if (!failed && !verbose) return send(res, 200, 'ok');
  const lines = results.map(([name, failure]) => (failure === undefined ? `[+]${name} ok` : `[-]${name} failed: reason withheld`));
  if (unknown.length > 0) lines.push(`warn: some health checks cannot be excluded: no matches for ${unknown.map((n) => JSON.stringify(n)).join(', ')}`);
  lines.push(`${endpoint} check ${failed ? 'failed' : 'passed'}`);
  send(res, failed ? 500 : 200, `${lines.join('\n')}\n`);
}

/** `undefined` when the check passes, else why it failed. */
async function run(check: HealthCheck): Promise<string | undefined> {
  try {
    return (await check()) === false ? 'failed' : undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
