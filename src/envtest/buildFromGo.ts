import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { EnvtestError } from './envtestError.js';

const run = promisify(execFile);

/**
 * The Go modules that pin etcd, kube-apiserver and kube-controller-manager: the project's
 * test/cluster/<name>/go.mod and go.sum (the package ships them at the same place relative to
 * dist/envtest/, so this path holds in the checkout and in the installed package). @internal
 */
export const goModulesRoot = fileURLToPath(new URL('../../test/cluster/', import.meta.url));

interface Target {
  readonly name: 'etcd' | 'kube-apiserver' | 'kube-controller-manager';
  readonly pkg: string;
  readonly ldflags: (versionOf: (module: string) => string) => string;
}

/** Upstream's version stamping (hack/lib/version.sh), so that /version tells the truth. */
const kubeLdflags = (versionOf: (module: string) => string): string => {
  const version = versionOf('k8s.io/kubernetes');
  const minor = version.replace(/^v1\./, '').split('.')[0];
  const stamp = (pkg: string): string =>
    `-X ${pkg}.gitVersion=${version} -X ${pkg}.gitMajor=1 -X ${pkg}.gitMinor=${minor} -X ${pkg}.gitTreeState=clean -X ${pkg}.buildDate=1970-01-01T00:00:00Z`;
  return `-s -w ${stamp('k8s.io/component-base/version')} ${stamp('k8s.io/client-go/pkg/version')}`;
};

const targets: readonly Target[] = [
  { name: 'etcd', pkg: 'go.etcd.io/etcd/server/v3', ldflags: (v) => `-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=${v('go.etcd.io/etcd/server/v3')}` },
  { name: 'kube-apiserver', pkg: 'k8s.io/kubernetes/cmd/kube-apiserver', ldflags: kubeLdflags },
  { name: 'kube-controller-manager', pkg: 'k8s.io/kubernetes/cmd/kube-controller-manager', ldflags: kubeLdflags },
];

/** The version `go.mod` requires of `module` (one-line or block `require`). */
function requiredVersion(goMod: string, module: string): string {
  const escaped = module.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`^\\s*(?:require\\s+)?${escaped}\\s+(v\\S+)`, 'm').exec(goMod);
  if (!match) throw new EnvtestError('build-failed', `cannot read the version of ${module} from go.mod`);
  return match[1]!;
}

/** What {@link buildFromGo} needs. @internal */
export interface GoBuildRequest {
  readonly go: string;
  readonly cacheDirectory: string;
  readonly garbageCollector: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly log: (line: string) => void;
  /** For tests: another folder of `<name>/go.mod` + `go.sum`. */
  readonly modulesRoot?: string;
}

/**
 * Builds (or finds in the cache) etcd, kube-apiserver and, for the garbage collector,
 * kube-controller-manager from the pinned Go modules. A binary is kept in
 * `<cacheDirectory>/<name>-<key>/<name>`, where the key hashes `go version`, go.mod, go.sum, the
 * package and the flags: the same inputs find the same binary, on any checkout of the machine.
 * The toolchain is never switched (`GOTOOLCHAIN=local`) and go.mod is never rewritten
 * (`-mod=readonly`). @internal
 */
export async function buildFromGo(request: GoBuildRequest): Promise<{ etcd: string; kubeApiServer: string; kubeControllerManager?: string }> {
  const root = request.modulesRoot ?? goModulesRoot;
  const env = { ...request.env, GOTOOLCHAIN: 'local', GOFLAGS: `${request.env['GOFLAGS'] ?? ''} -mod=readonly`.trim(), CGO_ENABLED: '0' };
  let goVersion: string;
  try {
    goVersion = (await run(request.go, ['version'], { env })).stdout.trim();
  } catch (error) {
    throw new EnvtestError('build-failed', `\`${request.go} version\` failed`, { cause: error });
  }
  const paths: Partial<Record<Target['name'], string>> = {};
  for (const target of targets) {
    if (target.name === 'kube-controller-manager' && !request.garbageCollector) continue;
    const dir = join(root, target.name);
    if (!existsSync(join(dir, 'go.mod'))) throw new EnvtestError('binaries-missing', `the Go module to build ${target.name} from is missing (${dir}/go.mod)`);
    const goMod = readFileSync(join(dir, 'go.mod'), 'utf8');
    const ldflags = target.ldflags((module) => requiredVersion(goMod, module));
    const key = createHash('sha256').update([goVersion, goMod, readFileSync(join(dir, 'go.sum'), 'utf8'), target.pkg, ldflags].join('\0')).digest('hex').slice(0, 12);
    const out = join(request.cacheDirectory, `${target.name}-${key}`);
    const binary = join(out, target.name);
    if (!existsSync(binary)) {
      request.log(`envtest: building ${target.name} from Go modules (${target.pkg}); minutes on a cold Go cache, once`);
      mkdirSync(request.cacheDirectory, { recursive: true });
      // A private folder, renamed into place: two test processes may build at once.
      const tmp = mkdtempSync(`${out}.tmp.`);
      const started = Date.now();
      try {
        await run(request.go, ['build', '-trimpath', '-ldflags', ldflags, '-o', join(tmp, target.name), target.pkg], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
        if (!existsSync(binary)) renameSync(tmp, out);
      } catch (error) {
        const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim().split('\n').slice(-20).join('\n');
        throw new EnvtestError('build-failed', `go build of ${target.name} failed:\n${stderr}`, { cause: error });
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
      request.log(`envtest: built ${target.name} in ${Math.round((Date.now() - started) / 1000)} s (${binary})`);
    }
    paths[target.name] = binary;
  }
  return {
    etcd: paths.etcd!,
    kubeApiServer: paths['kube-apiserver']!,
    ...(paths['kube-controller-manager'] ? { kubeControllerManager: paths['kube-controller-manager'] } : {}),
  };
}
