import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EnvtestError } from './envtestError.js';

const run = promisify(execFile);

/** A certificate and its key, PEM. @internal */
export interface KeyPair {
  readonly cert: string;
  readonly key: string;
  readonly certFile: string;
  readonly keyFile: string;
}

/** The control plane's PKI: one CA, the apiserver's serving pair, the admin client pair, the service-account key. @internal */
export interface Pki {
  readonly dir: string;
  readonly ca: KeyPair;
  readonly apiServer: KeyPair;
  readonly admin: KeyPair;
  readonly serviceAccountKeyFile: string;
  readonly serviceAccountPublicKeyFile: string;
}

async function openssl(dir: string, args: readonly string[]): Promise<void> {
  try {
    await run('openssl', args, { cwd: dir });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const what = code === 'ENOENT' ? 'openssl is not on PATH (it makes the control plane\'s certificates; install it, e.g. apt-get install openssl)' : `openssl ${args[0]} failed: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}`;
    throw new EnvtestError('certificates-failed', what, { cause: error });
  }
}

/** `/O=a/O=b/CN=c`, with the characters -subj treats specially escaped. */
const subject = (commonName: string, organizations: readonly string[]): string => {
  const escape = (value: string): string => value.replace(/[\\/=+,]/g, (c) => `\\${c}`);
  return [...organizations.map((o) => `/O=${escape(o)}`), `/CN=${escape(commonName)}`].join('');
};

const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

async function readPair(dir: string, name: string): Promise<KeyPair> {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
  return { cert, key, certFile, keyFile };
}

/**
 * A leaf certificate signed by the CA in `dir` (ca.crt, ca.key): `name.crt` and `name.key`, an
 * ECDSA P-256 key, valid 7 days. `usage` `'server'` gets SANs 127.0.0.1 and localhost. @internal
 */
export async function issueCertificate(dir: string, name: string, commonName: string, organizations: readonly string[], usage: 'server' | 'client'): Promise<KeyPair> {
  const ext = join(dir, `${name}.ext`);
  const csr = join(dir, `${name}.csr`);
  const extensions =
    usage === 'server'
      ? 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n'
      : 'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n';
  await writeFile(ext, extensions);
  await openssl(dir, ['req', '-new', ...ecKey, '-subj', subject(commonName, organizations), '-keyout', `${name}.key`, '-out', csr]);
  // A random serial instead of -CAcreateserial: issuing runs in parallel.
  await openssl(dir, ['x509', '-req', '-in', csr, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-set_serial', `0x${randomBytes(16).toString('hex')}`, '-days', '7', '-extfile', ext, '-out', `${name}.crt`]);
  await Promise.all([rm(ext, { force: true }), rm(csr, { force: true })]);
  return readPair(dir, name);
}

/** Makes the whole PKI in `dir` with openssl (ECDSA P-256 keys: fast to make). @internal */
export async function makePki(dir: string): Promise<Pki> {
  await openssl(dir, ['req', '-x509', ...ecKey, '-days', '7', '-subj', '/CN=rx-informer-envtest-ca',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-keyout', 'ca.key', '-out', 'ca.crt']);
  const serviceAccount = generateKeyPairSync('ec', { namedCurve: 'P-256', publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  const serviceAccountKeyFile = join(dir, 'sa.key');
  const serviceAccountPublicKeyFile = join(dir, 'sa.pub');
  const [ca, apiServer, admin] = await Promise.all([
    readPair(dir, 'ca'),
    issueCertificate(dir, 'apiserver', 'kube-apiserver', [], 'server'),
    // admin: member of system:masters (every right, no RBAC binding needed).
    issueCertificate(dir, 'admin', 'admin', ['system:masters'], 'client'),
    writeFile(serviceAccountKeyFile, serviceAccount.privateKey, { mode: 0o600 }),
    writeFile(serviceAccountPublicKeyFile, serviceAccount.publicKey),
  ]);
  return { dir, ca, apiServer, admin, serviceAccountKeyFile, serviceAccountPublicKeyFile };
}
