/*
 * What retrying cannot fix ends `rx-informer watch` at once, with kubectl's wording and exit 1;
 * where kubectl words the same failure, its stderr (against the same server) is the expected text.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { cliCluster, runCli } from './cliCluster.js';

/** A kubeconfig pointing at `server`, without a CA or skip-verify. */
async function kubeconfigFor(dir: string, server: string): Promise<string> {
  const path = join(dir, 'other-config');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server } }],
    users: [{ name: 'u', user: { token: 'x' } }],
    contexts: [{ name: 'c', context: { cluster: 'c', user: 'u', namespace: 'default' } }],
    'current-context': 'c',
  };
  await writeFile(path, JSON.stringify(config), { mode: 0o600 });
  return path;
}

test.serial('a bad -l or --field-selector: the server\'s 400 as kubectl prints it, once, exit 1', async (t) => {
  const c = await cliCluster(t);
  for (const selector of [['-l', 'a b'], ['--field-selector', 'spec.frob=x'], ['-l', 'app=web', '--field-selector', 'metadata.nope=1']]) {
    const ours = c.cli(['watch', 'pods', '-A', ...selector]);
    const kubectl = c.kubectl(['get', 'pods', '-A', '-w', ...selector]);
    t.is(await ours.exit, 1, selector.join(' '));
    t.is(await kubectl.exit, 1);
    t.regex(ours.stderr(), /^Error from server \(BadRequest\): Unable to find "\/v1, Resource=pods" that match label selector "[^"]*", field selector "[^"]*": \S/);
    t.is(ours.stderr(), kubectl.stderr(), selector.join(' '));
    t.is(ours.stdout(), '');
  }
  // It gave up on the first refusal: one LIST per run, no retry.
  t.is(c.server.requests.filter((r) => r.verb === 'list' && r.status === 400).length, 6);
});

test.serial('forbidden: the 403 printed once, as kubectl prints it, exit 1', async (t) => {
  const c = await cliCluster(t);
  c.server.forbid({ resource: 'configmaps', verbs: ['list', 'watch'] });
  const ours = c.cli(['watch', 'configmaps', '-n', 'team']);
  const kubectl = c.kubectl(['get', 'configmaps', '-n', 'team', '-w']);
  t.is(await ours.exit, 1);
  t.is(await kubectl.exit, 1);
  t.is(ours.stderr(), 'Error from server (Forbidden): configmaps is forbidden: User "test-user" cannot list resource "configmaps" in API group "" in the namespace "team"\n');
  t.is(ours.stderr(), kubectl.stderr());
});

test.serial('unauthorized: kubectl\'s "You must be logged in", exit 1', async (t) => {
  const c = await cliCluster(t, { token: 'right' });
  c.server.setToken('rotated'); // the kubeconfig still has the old token
  const ours = c.cli(['watch', 'configmaps']);
  const kubectl = c.kubectl(['get', 'configmaps', '-w']);
  t.is(await ours.exit, 1);
  t.is(await kubectl.exit, 1);
  // The parenthesis is the server's message: "Unauthorized" from a real one and from this one; kubectl,
  // failing in its discovery client first, puts client-go's generic 401 text there instead.
  t.is(ours.stderr(), 'error: You must be logged in to the server (Unauthorized)\n');
  t.regex(kubectl.stderr(), /\nerror: You must be logged in to the server \(.+\)\n$/);
});

test.serial('a certificate the kubeconfig does not trust: a TLS error at once, no retries, exit 1', async (t) => {
  const c = await cliCluster(t);
  // A self-signed certificate for 127.0.0.1, made for this test.
  t.notThrows(() => execFileSync('openssl', ['version']), 'openssl is needed to make the test certificate');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', join(c.dir, 'key.pem'), '-out', join(c.dir, 'cert.pem')], { stdio: 'ignore' });
  const https = createHttpsServer({ key: readFileSync(join(c.dir, 'key.pem')), cert: readFileSync(join(c.dir, 'cert.pem')) }, (_req, res) => res.end('{}'));
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  t.teardown(() => void https.close());
  const kubeconfig = await kubeconfigFor(c.dir, `https://127.0.0.1:${(https.address() as AddressInfo).port}`);
  const cli = runCli(t, ['watch', 'pods', '--kubeconfig', kubeconfig]);
  t.is(await cli.exit, 1);
  t.regex(cli.stderr(), /^error: Unable to connect to the server: tls: .*self[- ]signed certificate.* \(DEPTH_ZERO_SELF_SIGNED_CERT\)\n$/);
});

test.serial('a server that is not a Kubernetes API server is called that, not "no resource type", exit 1', async (t) => {
  const c = await cliCluster(t);
  const other = createHttpServer((_req, res) => {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('404 page not found');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  t.teardown(() => void other.close());
  const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  const kubeconfig = await kubeconfigFor(c.dir, url);
  for (const resource of ['pods', 'widgets.example.com']) {
    const cli = runCli(t, ['watch', resource, '--kubeconfig', kubeconfig]);
    t.is(await cli.exit, 1);
    t.regex(cli.stderr(), new RegExp(`^error: the server at ${url.replace(/\./g, '\\.')} is not a Kubernetes API server: GET (/api/v1|/apis) answered 404 \\(404 page not found\\)\n$`));
  }
});

test.serial('an unreachable server is retried, and said so, until --request-timeout; then exit 1', async (t) => {
  const c = await cliCluster(t);
  const url = c.server.url;
  await c.server.close();
  const started = Date.now();
  const cli = c.cli(['watch', 'pods', '--request-timeout', '2s']);
  t.is(await cli.exit, 1);
  const lines = cli.stderr().trim().split('\n');
  const delay = Number(/^Unable to connect to the server: connect ECONNREFUSED 127\.0\.0\.1:\d+; retrying in (\d+\.\d)s$/.exec(lines[0]!)?.[1]);
  t.true(delay >= 0.8 && delay <= 1.6, `${lines[0]}: the reflector's first delay, 0.8 s with up to as much jitter`);
  t.is(lines.at(-1), `error: Unable to connect to the server: connect ECONNREFUSED ${url.slice('http://'.length)}; gave up after 2s (--request-timeout)`);
  t.true(Date.now() - started >= 2000, 'not before the timeout');
});
