import test from 'ava';
import { scrubCredentials } from '../../../src/client/transport/scrubCredentials.js';

const rows: ReadonlyArray<readonly [string, string, string]> = [
  ['plain text is kept', 'error: cluster "prod" is unreachable', 'error: cluster "prod" is unreachable'],
  ['a credential-like word in a sentence is kept', 'could not refresh the credentials for cluster c: token expired', 'could not refresh the credentials for cluster c: token expired'],
  ['name=value', 'token=abc123', 'token=[redacted]'],
  ['name: value, case-insensitive', 'Password: hunter2 please', 'Password: [redacted] please'],
  ['JSON field', '{"access_token": "s3cr3t", "expiry": "soon"}', '{"access_token": "[redacted]", "expiry": "soon"}'],
  ['a bearer header', 'Authorization: Bearer abc.def', 'Authorization: [redacted]'],
  ['a bearer token without a header', 'sent Bearer abc.def', 'sent Bearer [redacted]'],
  ['a JWT on its own', 'cached eyJhbGciOi.eyJzdWIi.c2ln expired', 'cached [redacted] expired'],
  ['a PEM block', 'key:\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\nend', 'key:\n[redacted key material]\nend'],
  ['a PEM block cut short', 'x -----BEGIN PRIVATE KEY-----\nMHcCAQEE', 'x [redacted key material]'],
  ['a bare random token', 'session 4f9c2a7be81d03f5a6c9 done', 'session [redacted] done'],
  ['a long word without digits is kept', 'see /usr/lib/google-cloud-sdk/bin/gke-gcloud-auth-plugin', 'see /usr/lib/google-cloud-sdk/bin/gke-gcloud-auth-plugin'],
];

for (const [what, input, expected] of rows) {
  test(`scrubCredentials: ${what}`, (t) => {
    t.is(scrubCredentials(input), expected);
  });
}

test('scrubCredentials cuts a long text after scrubbing', (t) => {
  const out = scrubCredentials(`${'word '.repeat(400)}`, 50);
  t.is(out.length, 50);
  t.true(out.endsWith('…'));
});
