/**
 * The Node binaries on this machine that are too old for the package (here: the system Node 20), for
 * the tests that check what a user on such a Node is told: the library's (test/package.spec.ts) and
 * the CLI's (packages/cli/test/packageBin.spec.ts, which runs from the workspace and imports this file
 * by its path in the repository).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Node binaries on this machine older than 22.19, by version. */
export async function oldNodes(): Promise<Map<string, string>> {
  const candidates = new Set(['/usr/bin/node', '/usr/local/bin/node', '/bin/node']);
  const which = await exec('which', ['-a', 'node']).catch(() => ({ stdout: '' }));
  for (const line of which.stdout.split('\n')) if (line.trim()) candidates.add(line.trim());
  const found = new Map<string, string>();
  for (const candidate of candidates) {
    const version = await exec(candidate, ['--version']).then((r) => r.stdout.trim(), () => undefined);
    const [major = 0, minor = 0] = (version ?? '').replace(/^v/, '').split('.').map(Number);
    if (version && (major < 22 || (major === 22 && minor < 19)) && !found.has(version)) found.set(version, candidate);
  }
  return found;
}
