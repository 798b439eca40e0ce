/*
 * Secrets (issue 7 §3): bearer tokens, client keys, basic-auth passwords (and exec-plugin tokens)
 * from the KubeConfig never appear in anything the library emits: statuses, errors$, stream
 * errors, thrown errors, console output. Every emitted value is walked in depth (message, stack,
 * cause chain, own properties, util.inspect) and scanned for each secret and for its prefix.
 */
import test from 'ava';
import { KubeConfig } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { firstValueFrom, timer } from 'rxjs';
import { informer } from '../../src/informer/informer.js';
import { listWatch } from '../../src/sources/listWatch.js';
import type { ListWatchConfig } from '../../src/sources/listWatchConfig.js';
import type { ListWatchStatus } from '../../src/sources/reflector/listWatchStatus.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { createTestApiServer, type TestApiServer } from '../../src/testServer/index.js';
import { startTlsProxy, tlsCert, tlsKey } from '../sources/tlsProxy.js';
import { sleep, until } from './harness.js';

/** A random secret: any 10 characters of it in a row are evidence of a leak (JSON.parse quotes 10). */
const secret = (_what: string): string => randomBytes(20).toString('hex');
const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');

/** Everything a value shows: its strings, error messages, stacks, causes, properties, inspect output. */
function textOf(value: unknown, seen = new Set<unknown>(), depth = 0): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' && typeof value !== 'function') return String(value);
  if (seen.has(value) || depth > 8) return '';
  seen.add(value);
  const parts: string[] = [inspect(value, { depth: 8, showHidden: true, getters: false })];
  if (value instanceof Error) parts.push(value.name, value.message, value.stack ?? '', textOf(value.cause, seen, depth + 1));
  for (const key of Reflect.ownKeys(value)) {
    try {
      parts.push(String(key), textOf((value as Record<PropertyKey, unknown>)[key], seen, depth + 1));
    } catch {
      // a throwing getter: nothing emitted through it
    }
  }
  try {
    parts.push(JSON.stringify(value) ?? '');
  } catch {
    // cycles
  }
  return parts.join('\n');
}

/** Collects everything the library emits and everything written to the console meanwhile. */
function recorder() {
  const emitted: unknown[] = [];
  const originals = {
    log: console.log,
    info: console.info,
    warn: console.warn,
    error: console.error,
    debug: console.debug,
    trace: console.trace,
    stdout: process.stdout.write,
    stderr: process.stderr.write,
  };
  for (const name of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    console[name] = (...args: unknown[]) => void emitted.push(['console', ...args]);
  }
  process.stdout.write = ((chunk: unknown) => (emitted.push(['stdout', String(chunk)]), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown) => (emitted.push(['stderr', String(chunk)]), true)) as typeof process.stderr.write;
  const onWarning = (w: Error): void => void emitted.push(['warning', w]);
  process.on('warning', onWarning);
  return {
    emitted,
    restore() {
      Object.assign(console, { log: originals.log, info: originals.info, warn: originals.warn, error: originals.error, debug: originals.debug, trace: originals.trace });
      process.stdout.write = originals.stdout;
      process.stderr.write = originals.stderr;
      process.off('warning', onWarning);
    },
  };
}

/** Fails naming the secret and where it showed, if any emitted value contains 10 characters in a row of a secret. */
function assertNoSecrets(t: { fail(message: string): void; pass(): void }, emitted: readonly unknown[], secrets: readonly string[]): void {
  const needles = secrets.flatMap((s) => Array.from({ length: Math.max(1, s.length - 9) }, (_, i) => s.slice(i, i + 10)));
  for (const value of emitted) {
    const text = textOf(value);
    for (const needle of needles) {
      if (text.includes(needle)) {
        const at = text.indexOf(needle);
        t.fail(`a secret (${needle.slice(0, 12)}…) appears in: ${text.slice(Math.max(0, at - 200), at + 60)}`);
        return;
      }
    }
  }
  t.pass();
}

/**
 * Runs an informer over listWatch until `stopWhen` holds (at most `ms`), recording statuses,
 * errors$, stream errors and console output.
 */
async function emittedBy(kubeConfig: KubeConfig, ms: number, config: ListWatchConfig<KubeObject> = {}, stopWhen?: (statuses: number, emitted: readonly unknown[]) => boolean) {
  const rec = recorder();
  let statuses = 0;
  try {
    const inf = informer(
      listWatch(kubeConfig, { version: 'v1', plural: 'configmaps' }, {
        backoff: { initialDelay: 5, maxDelay: 20 },
        ...config,
        onStatus: (s) => {
          statuses++;
          rec.emitted.push(['status', s]);
          config.onStatus?.(s);
        },
      }),
    );
    inf.errors$.subscribe((e) => rec.emitted.push(['errors$', e]));
    const sub = inf.changes$.subscribe({ next: (c) => rec.emitted.push(['change', c]), error: (e) => rec.emitted.push(['stream error', e]) });
    const deadline = Date.now() + ms;
    while (Date.now() < deadline && !(stopWhen?.(statuses, rec.emitted) ?? false)) await sleep(5);
    sub.unsubscribe();
    // Promise-returning API: its rejection is emitted too.
    await firstValueFrom(timer(0));
  } catch (error) {
    rec.emitted.push(['thrown', error]);
  } finally {
    rec.restore();
  }
  return { emitted: rec.emitted, statuses };
}

function kubeConfigFor(server: string, user: Record<string, unknown>, cluster: Record<string, unknown> = { skipTLSVerify: true }): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, ...cluster }],
    users: [{ name: 'u', ...user }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u', namespace: 'default' }],
    currentContext: 'x',
  });
  return kc;
}

async function withServer(run: (server: TestApiServer) => Promise<void>, token?: string): Promise<void> {
  const server = await createTestApiServer(token === undefined ? {} : { token });
  try {
    server.create('configmaps', { metadata: { name: 'a', namespace: 'default' } });
    await run(server);
  } finally {
    await server.close();
  }
}

test('a bearer token rejected with 401 again and again never shows', (t) =>
  withServer(async (server) => {
    const token = secret('token');
    const { emitted, statuses } = await emittedBy(kubeConfigFor(server.url, { token }), 3000, {}, (n) => n > 30);
    t.true(statuses > 4, 'several 401s were reported');
    t.true(emitted.some((e) => textOf(e).includes('unauthorized')), 'the 401 is visible');
    t.true(server.requests.some((r) => r.headers.authorization === `Bearer ${token}`), 'the token was sent');
    assertNoSecrets(t, emitted, [token]);
  }, secret('expected')));

test('a basic-auth password rejected with 401 never shows', (t) =>
  withServer(async (server) => {
    const password = secret('password');
    const { emitted, statuses } = await emittedBy(kubeConfigFor(server.url, { username: 'admin', password }), 3000, {}, (n) => n > 30);
    t.true(statuses > 4);
    t.true(server.requests.some((r) => r.headers.authorization === `Basic ${b64(`admin:${password}`)}`), 'the password was sent');
    assertNoSecrets(t, emitted, [password, b64(`admin:${password}`)]);
  }, secret('expected')));

test('a client key (valid, over TLS with a failing server check; and garbage) never shows', async (t) => {
  const server = await createTestApiServer();
  const proxy = await startTlsProxy(server.url, true);
  try {
    const keyLines = tlsKey.toString('utf8').split('\n').filter((l) => l && !l.startsWith('-----'));
    // The server's certificate is not trusted (no CA given): TLS errors.
    const good = await emittedBy(kubeConfigFor(proxy.url, { 'client-certificate-data': b64(tlsCert), 'client-key-data': b64(tlsKey) }, {}), 3000, {}, (n) => n > 20);
    t.true(good.statuses > 2);
    const garbageKey = `-----BEGIN PRIVATE KEY-----\n${secret('key')}\n-----END PRIVATE KEY-----\n`;
    const bad = await emittedBy(
      kubeConfigFor(proxy.url, { 'client-certificate-data': b64(tlsCert), 'client-key-data': b64(garbageKey) }, { 'certificate-authority-data': b64(tlsCert) }),
      3000,
      {},
      (n) => n > 20,
    );
    t.true(bad.statuses > 2);
    assertNoSecrets(t, [...good.emitted, ...bad.emitted], [...keyLines.slice(1, -1), b64(tlsKey), garbageKey.split('\n')[1]!, b64(garbageKey)]);
  } finally {
    await proxy.close();
    await server.close();
  }
});

test('an exec plugin whose output is not JSON (it printed the bare token) never shows the token', async (t) => {
  const token = secret('exectoken');
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-secrets-'));
  try {
    const bare = join(dir, 'bare.mjs');
    await writeFile(bare, `process.stdout.write(${JSON.stringify(token)});\n`);
    const broken = join(dir, 'broken.mjs');
    await writeFile(broken, `process.stdout.write(${JSON.stringify(`{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${token}"`)});\n`);
    await withServer(async (server) => {
      const emitted: unknown[] = [];
      for (const plugin of [bare, broken]) {
        const exec = { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [plugin], interactiveMode: 'Never' };
        const run = await emittedBy(kubeConfigFor(server.url, { exec }), 1500, {}, (n) => n > 3);
        t.true(run.statuses > 0, 'the credential failure was reported');
        emitted.push(...run.emitted);
      }
      t.true(emitted.some((e) => textOf(e).includes('cannot load credentials')), 'the failure is visible');
      assertNoSecrets(t, emitted, [token]);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an exec plugin that fails with credentials on its stderr: the failure shows, scrubbed; no token, key or password does', async (t) => {
  const token = secret('stderrtoken');
  const bearer = secret('bearer');
  const password = 'hunter2-' + secret('password').slice(0, 8);
  const key = randomBytes(96).toString('base64');
  const jwt = `eyJ${b64('{"alg":"RS256"}').slice(3)}.${Buffer.from(secret('claims')).toString('base64url')}.${secret('sig')}`;
  const bare = randomBytes(24).toString('base64url');
  const stderr = [
    'error: could not refresh the credentials for cluster c',
    `token=${token}`,
    `Authorization: Bearer ${bearer}`,
    `{"password": "${password}"}`,
    '-----BEGIN RSA PRIVATE KEY-----',
    ...(key.match(/.{1,64}/g) ?? []),
    '-----END RSA PRIVATE KEY-----',
    `cached id token ${jwt} expired`,
    `session ${bare}`,
  ].join('\n');
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-secrets-'));
  try {
    const plugin = join(dir, 'failing.mjs');
    await writeFile(plugin, `process.stderr.write(${JSON.stringify(stderr)}); process.exitCode = 1;\n`);
    await withServer(async (server) => {
      const exec = { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [plugin], interactiveMode: 'Never' };
      const run = await emittedBy(kubeConfigFor(server.url, { exec }), 5000, {}, (n) => n > 3);
      t.true(run.statuses > 0, 'the credential failure was reported');
      const failure = run.emitted.map((e) => textOf(e)).find((text) => text.includes('cannot load credentials'));
      t.truthy(failure, 'the failure is visible');
      t.true(failure!.includes('could not refresh the credentials for cluster c'), 'what the plugin said, less its secrets, is kept');
      assertNoSecrets(t, run.emitted, [token, bearer, password, key, jwt, bare]);
      t.true(failure!.includes('[redacted]'), 'and it says something was taken out');
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an OIDC id-token that does not decode (its header is not JSON) never shows', (t) =>
  withServer(async (server) => {
    const inner = secret('oidc');
    const idToken = `${Buffer.from(inner).toString('base64url')}.${Buffer.from('{}').toString('base64url')}.${secret('sig')}`;
    const user = { authProvider: { name: 'oidc', config: { 'id-token': idToken, 'client-id': 'x', 'idp-issuer-url': 'https://127.0.0.1:1' } } };
    const { emitted, statuses } = await emittedBy(kubeConfigFor(server.url, user), 3000, {}, (n) => n > 3);
    t.true(statuses > 0);
    t.true(emitted.some((e) => textOf(e).includes('cannot load credentials')), 'the failure is visible');
    assertNoSecrets(t, emitted, [idToken, inner]);
  }));

test('faults with a valid token (429, 500, 403 made fatal, refused connections, resets, malformed lines): the token never shows', (t) => {
  const token = secret('goodtoken');
  return withServer(async (server) => {
    const kc = kubeConfigFor(server.url, { token });
    const rec: unknown[] = [];
    const statuses: ListWatchStatus[] = [];
    const streamError = (emitted: readonly unknown[]) => emitted.some((e) => Array.isArray(e) && e[0] === 'stream error');
    const run = emittedBy(kc, 20_000, { fatalErrors: 'permanent', onStatus: (s) => statuses.push(s) }, (_, emitted) => streamError(emitted));
    // Each fault meets an open watch: wait for the informer to be watching again before the next.
    const watching = () => statuses.filter((s) => s.type === 'WATCHING').length;
    const watchingAgain = async (what: string) => {
      const before = watching();
      await until(() => watching() > before, what);
    };
    await until(() => watching() > 0, 'the first watch');
    server.failNext({ status: 429, verbs: ['watch'], count: 2, retryAfterSeconds: 0 });
    server.failNext({ status: 500, verbs: ['list'], count: 1 });
    server.closeWatches();
    await watchingAgain('the re-watch after two 429s');
    server.breakWatches({ reset: true });
    await watchingAgain('the re-watch after a reset');
    server.emitMalformedLine(`{"type":"ERROR","object":{"message":"not a status"}}\n`);
    await watchingAgain('the relist (through a 500) after a malformed line');
    await server.refuseConnections(50);
    await watchingAgain('the re-watch after refused connections');
    server.forbid({ verbs: ['list', 'watch'] });
    server.failWatches({ status: 410 });
    const { emitted } = await run;
    rec.push(...emitted);
    t.true(rec.some((e) => Array.isArray(e) && e[0] === 'stream error'), 'the 403 ended the stream with an error');
    t.true(server.requests.every((r) => r.verb === undefined || r.headers.authorization === `Bearer ${token}`));
    // And what the KubeConfig API and our thrown TypeErrors show when misused.
    try {
      listWatch(kc, { version: '', plural: 'configmaps' });
    } catch (error) {
      rec.push(error);
    }
    assertNoSecrets(t, rec, [token]);
  }, token);
});

test('the scan finds a secret when one is emitted (the check can fail)', (t) => {
  const token = secret('canary');
  const failures: string[] = [];
  const probe = { fail: (m: string) => void failures.push(m), pass: () => undefined };
  assertNoSecrets(probe, [['status', { type: 'ERROR', error: new Error('x', { cause: new Error(`Bearer ${token}`) }) }]], [token]);
  assertNoSecrets(probe, [['console', `a piece: "${token.slice(5, 15)}"...`]], [token]);
  assertNoSecrets(probe, [['console', `no piece: "${token.slice(5, 14)}"...`]], [token]);
  t.is(failures.length, 2, 'nine characters are not enough to count');
});
