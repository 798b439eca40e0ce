/**
 * The control plane's certificates (src/envtest/certificates.ts): made by openssl, each leaf signed
 * by the CA, with the names and usages the apiserver reads (CN = user, O = groups, SANs).
 */
import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueCertificate, makePki } from '../../src/envtest/certificates.js';

test('the PKI: a CA, a serving pair for 127.0.0.1 and localhost, an admin in system:masters, each signed by the CA', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rx-envtest-pki-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const pki = await makePki(dir);
  const ca = new X509Certificate(pki.ca.cert);
  t.true(ca.ca);
  const server = new X509Certificate(pki.apiServer.cert);
  t.true(server.verify(ca.publicKey));
  t.is(server.subjectAltName, 'IP Address:127.0.0.1, DNS:localhost');
  t.true(server.checkIP('127.0.0.1') !== undefined);
  const admin = new X509Certificate(pki.admin.cert);
  t.true(admin.verify(ca.publicKey));
  t.is(admin.subject, 'O=system:masters\nCN=admin');
  t.regex(pki.admin.key, /-----BEGIN PRIVATE KEY-----/);
  // A user for RBAC tests: groups as O entries, characters openssl's -subj treats specially kept.
  const user = new X509Certificate((await issueCertificate(dir, 'user-1', 'system:serviceaccount:ns:a/b', ['team=red', 'testers'], 'client')).cert);
  t.true(user.verify(ca.publicKey));
  t.is(user.subject, 'O=team=red\nO=testers\nCN=system:serviceaccount:ns:a/b');
});
