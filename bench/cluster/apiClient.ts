/**
 * The loader of `npm run bench:cluster`: writes through the real kube-apiserver with many requests
 * in flight (creates to load N ConfigMaps, merge patches for the update bursts), and reads its
 * request counters. A keep-alive HTTPS agent with the kubeconfig's client certificate.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { nowMs, SEQ_ANNOTATION, TIME_ANNOTATION } from '../core/protocol.js';
import { benchObject, namespaceOf } from '../core/workload.js';

export interface ApiClient {
  /** One request; resolves with the status and body text. */
  call(method: string, path: string, body?: unknown, contentType?: string): Promise<{ status: number; text: string }>;
  close(): void;
}

/** An HTTPS client for the current context of the kubeconfig at `path` (CA and client certificate files). */
export function apiClient(path: string, maxSockets = 64): ApiClient {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  const cluster = kc.getCurrentCluster()!;
  const user = kc.getCurrentUser()!;
  const server = new URL(cluster.server);
  const agent = new Agent({
    keepAlive: true,
    maxSockets,
    ca: readFileSync(cluster.caFile!),
    cert: readFileSync(user.certFile!),
    key: readFileSync(user.keyFile!),
  });
  return {
    call: (method, reqPath, body, contentType = 'application/json') =>
      new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = request(
          {
            agent,
            host: server.hostname,
            port: server.port,
            method,
            path: reqPath,
            headers: { Accept: 'application/json', 'User-Agent': 'rx-informer-bench-loader', ...(payload ? { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) } : {}) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(payload);
      }),
    close: () => agent.destroy(),
  };
}

/**
 * Errors of the connection rather than of the request: the apiserver closed an idle keep-alive
 * socket as the request was written on it (EPIPE, ECONNRESET). The agent drops that socket, so the
 * request is sent again at once on another one, without using up one of its attempts.
 */
const connectionErrors = new Set(['EPIPE', 'ECONNRESET', 'ECONNABORTED', 'ERR_STREAM_DESTROYED']);
/** Connection errors one call survives before it fails (every pooled socket may have been closed at once). */
const maxConnectionRetries = 200;

/**
 * Runs `work(i)` for i in `from..to-1` with at most `limit` in flight. A failed call is retried up to
 * 5 times with a growing pause; a connection error ({@link connectionErrors}) is retried at once and
 * does not count against those 5 (up to {@link maxConnectionRetries}).
 */
export async function pool(from: number, to: number, limit: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = from;
  const runner = async (): Promise<void> => {
    while (next < to) {
      const i = next++;
      for (let attempt = 0, reconnects = 0; ; ) {
        try {
          await work(i);
          break;
        } catch (error) {
          const code = (error as { code?: unknown } | null)?.code;
          if (typeof code === 'string' && connectionErrors.has(code) && ++reconnects <= maxConnectionRetries) continue;
          if (++attempt > 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, to - from) }, runner));
}

/** A write that must succeed: throws on any status but `ok`. */
export async function expectStatus(client: ApiClient, ok: number[], method: string, path: string, body?: unknown, contentType?: string): Promise<void> {
  const { status, text } = await client.call(method, path, body, contentType);
  if (!ok.includes(status)) throw new Error(`${method} ${path}: ${status} ${text.slice(0, 200)}`);
}

/**
 * Creates the benchmark's namespaces `0..count-1` (`namespaceOf`), one at a time; one that exists
 * already is fine. Through {@link pool}, so a keep-alive socket the apiserver closed while the
 * process was busy elsewhere (building client-go) costs a retry, not the run.
 */
export async function createNamespaces(client: ApiClient, count: number): Promise<void> {
  await pool(0, count, 1, (ns) => expectStatus(client, [201, 409], 'POST', '/api/v1/namespaces', { metadata: { name: namespaceOf(ns) } }));
}

/** The merge patch of one benchmark update: its seq, and the time it was sent. */
export function updatePatch(seq: number): object {
  return { metadata: { annotations: { [SEQ_ANNOTATION]: String(seq), [TIME_ANNOTATION]: nowMs().toFixed(3) } } };
}

/** `apiserver_request_total` for configmaps, summed by verb (LIST, WATCH, …), from /metrics. */
export async function requestCounts(client: ApiClient): Promise<Record<string, number>> {
  const { text } = await client.call('GET', '/metrics');
  const counts: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('apiserver_request_total{') || !line.includes('resource="configmaps"')) continue;
    const verb = /verb="([A-Z]+)"/.exec(line)?.[1];
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (verb) counts[verb] = (counts[verb] ?? 0) + value;
  }
  return counts;
}

/**
 * Creates ConfigMaps `from..to-1` through the apiserver, 64 in flight (the loopback workload's
 * objects, without their managedFields: the apiserver writes its own); their namespaces must
 * exist. Resolves with the creates per second.
 */
export async function loadConfigMaps(client: ApiClient, from: number, to: number): Promise<number> {
  const t0 = Date.now();
  await pool(from, to, 64, async (i) => {
    const object = benchObject(i) as { metadata: Record<string, unknown> };
    delete object.metadata.managedFields;
    await expectStatus(client, [201, 409], 'POST', `/api/v1/namespaces/${namespaceOf(i)}/configmaps`, object);
  });
  return (to - from) / ((Date.now() - t0) / 1000);
}
