import { nodeTooOldError } from '../../errors.js';

/**
 * The oldest Node.js on which rx-informer talks to an API server: `engines.node` of package.json
 * (test/package.spec.ts holds the two equal). @kubernetes/client-node 2, which reads the KubeConfig,
 * brings an HTTP stack (undici 8) that fails while loading on older ones, with a `TypeError` from
 * deep inside it; the operators, the store and `rx-informer/testing` run on older ones too.
 */
export const minimumNodeVersion = '22.19';

/**
 * Throws a one-line error naming the minimum when this Node is older than
 * {@link minimumNodeVersion}. Written to run on any Node that can import an ES module, so the
 * message comes before anything that needs the newer Node is loaded.
 *
 * @param what who needs it, the subject of the message (`rx-informer/test-server`).
 * @param purpose what for, after the version (`to talk to an API server`), if anything.
 * @param version the running Node's version (`process.version`; none outside Node); a parameter for tests.
 */
export function checkNodeVersion(what: string, purpose = '', version: string | undefined = globalThis.process?.version): void {
  if (version === undefined) return; // not Node (a browser): the transport says what it cannot do
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const [minMajor = 0, minMinor = 0] = minimumNodeVersion.split('.').map(Number);
  if (major < minMajor || (major === minMajor && minor < minMinor)) throw nodeTooOldError(what, purpose, minimumNodeVersion, version);
}
