/**
 * A folder laid out as setup-envtest lays one (`etcd`, `kube-apiserver`, `kubectl` side by side,
 * here symlinks), pointing at the binaries `test/cluster/env.sh build` made (.cluster/bin), plus
 * kube-controller-manager for the garbage collector. What KUBEBUILDER_ASSETS names in the envtest
 * tests, the cycle script and the examples' runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** .cluster/bin of this checkout (symlinks into ~/.cache/rx-informer-cluster). */
export const builtBinaries = fileURLToPath(new URL('../../../.cluster/bin/', import.meta.url));

/** Makes the folder; `remove()` deletes it. Throws when env.sh build has not run. */
export function envtestAssets(): { readonly dir: string; remove(): void } {
  for (const name of ['etcd', 'kube-apiserver', 'kube-controller-manager']) {
    if (!existsSync(join(builtBinaries, name))) throw new Error(`[envtest e2e] ${join(builtBinaries, name)} is missing: run \`bash test/cluster/env.sh build\` first`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'rx-envtest-assets-'));
  for (const name of ['etcd', 'kube-apiserver', 'kube-controller-manager']) symlinkSync(join(builtBinaries, name), join(dir, name));
  const kubectl = execFileSync('sh', ['-c', 'command -v kubectl || true'], { encoding: 'utf8' }).trim();
  if (kubectl !== '') symlinkSync(kubectl, join(dir, 'kubectl'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
