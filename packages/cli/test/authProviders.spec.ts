/**
 * A kubeconfig user with an `auth-provider`, through the bundle: client-node's authenticators take
 * their libraries (jsonpath-plus for `gcp` and `azure`, openid-client for `oidc`) from
 * `auth-providers.cjs`, which bundleCli.ts loads on first use. These check that first use from the
 * CLI: a `gcp` token read from a command's output by its JSONPath reaches the API server, and an
 * `oidc` user whose id-token has expired reaches openid-client's `discovery` (with its
 * `customFetch`, as the issuer's CA is in the kubeconfig) and fails there, not on a missing module.
 */
import test from 'ava';
import { chmod, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { cliCluster, runCli } from './cliCluster.js';

/** The cluster's kubeconfig (JSON, as the test server writes it) with its user's `auth-provider` set, written beside it. */
async function withAuthProvider(kubeconfig: string, text: string, authProvider: Record<string, unknown>): Promise<string> {
  const config = JSON.parse(text) as { users: Array<{ user: Record<string, unknown> }> };
  for (const entry of config.users) entry.user = { 'auth-provider': authProvider };
  const path = join(kubeconfig, '..', 'with-auth-provider');
  await writeFile(path, JSON.stringify(config));
  return path;
}

/** A port on loopback that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A JWT-shaped id-token (unsigned; client-node reads only its expiry) that expired at `exp` (seconds). */
const idToken = (exp: number): string => [{ alg: 'RS256', typ: 'JWT' }, { iss: 'https://issuer.invalid', sub: 'u', exp }, 'signature'].map((part) => (typeof part === 'string' ? part : Buffer.from(JSON.stringify(part)).toString('base64url'))).join('.');

test('a gcp auth-provider: the token its command prints, read by the JSONPath of token-key, is the bearer token every request carries', async (t) => {
  const c = await cliCluster(t);
  c.server.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'listed', namespace: 'a' } });
  const command = join(c.dir, 'print-token');
  await writeFile(command, `#!/bin/sh\necho '{"credential":{"access_token":"token-from-gcp-command","token_expiry":"2099-01-01T00:00:00Z"}}'\n`);
  await chmod(command, 0o755);
  const kubeconfig = await withAuthProvider(c.kubeconfig, c.server.kubeConfigText(), {
    name: 'gcp',
    config: { 'cmd-path': command, 'token-key': '{.credential.access_token}', 'expiry-key': '{.credential.token_expiry}' },
  });
  const cli = runCli(t, ['watch', 'configmaps', '-A', '--kubeconfig', kubeconfig]);
  await cli.waitFor('stdout', /^a\s+listed\s/m);
  const seen = c.server.requests.filter((r) => r.resource === 'configmaps');
  t.true(seen.length >= 1, 'the list reached the server');
  t.deepEqual([...new Set(seen.map((r) => r.headers.authorization))], ['Bearer token-from-gcp-command']);
});

test('an oidc auth-provider whose id-token expired: the CLI asks openid-client to discover the issuer (its CA from the kubeconfig, so with customFetch) and says why it failed; openid-client loaded and tried', async (t) => {
  const c = await cliCluster(t);
  const port = await closedPort();
  const kubeconfig = await withAuthProvider(c.kubeconfig, c.server.kubeConfigText(), {
    name: 'oidc',
    config: {
      'client-id': 'rx-informer-test',
      'id-token': idToken(1_000),
      'refresh-token': 'refresh',
      'idp-issuer-url': `https://127.0.0.1:${port}`,
      'idp-certificate-authority-data': Buffer.from(rootCertificates[0]!).toString('base64'),
    },
  });
  const cli = runCli(t, ['watch', 'configmaps', '-A', '--kubeconfig', kubeconfig]);
  // client-node 2.x hands openid-client 6's `discovery` the issuer as a string where it takes a URL,
  // so today openid-client refuses it before it connects; either answer comes from openid-client.
  const [line] = await cli.waitFor('stderr', new RegExp(`^.*(ECONNREFUSED 127\\.0\\.0\\.1:${port}|"server" must be an instance of URL).*$`, 'm'));
  t.notRegex(cli.stderr(), /is not a function|is not a constructor|Cannot find module|auth-providers/, `an issuer failure, not a loading one: ${line}`);
  t.is(c.server.requests.filter((r) => r.resource === 'configmaps').length, 0, 'nothing reached the API server without a token');
});
