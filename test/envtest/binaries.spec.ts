/**
 * Where the control plane's binaries come from (src/envtest/binaries.ts, buildFromGo.ts), without
 * running them: the explicit folder, KUBEBUILDER_ASSETS, a build from Go modules (here by a fake
 * `go` that records its calls), and the error when none is there.
 */
import test from 'ava';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startControlPlane, EnvtestError } from 'rx-informer/envtest';
import { resolveBinaries } from '../../src/envtest/binaries.js';

const root = mkdtempSync(join(tmpdir(), 'rx-envtest-spec-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));
const scratch = (): string => mkdtempSync(join(root, 'x-'));
const exe = (path: string, text = '#!/bin/sh\nexit 0\n'): string => {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
};
const request = (env: NodeJS.ProcessEnv, extra: Partial<Parameters<typeof resolveBinaries>[0]> = {}) => ({
  binaryAssetsDirectory: undefined,
  garbageCollector: false,
  buildFromGo: true,
  cacheDirectory: join(scratch(), 'cache'),
  env,
  log: () => {},
  ...extra,
});

test('KUBEBUILDER_ASSETS laid out as setup-envtest lays it (symlinks etcd, kube-apiserver, kubectl) is used', async (t) => {
  const real = scratch();
  const assets = scratch();
  for (const name of ['etcd', 'kube-apiserver', 'kubectl']) symlinkSync(exe(join(real, name)), join(assets, name));
  const found = await resolveBinaries(request({ KUBEBUILDER_ASSETS: assets, PATH: '' }));
  t.deepEqual(found, { etcd: join(assets, 'etcd'), kubeApiServer: join(assets, 'kube-apiserver'), kubectl: join(assets, 'kubectl'), source: 'KUBEBUILDER_ASSETS' });
});

test('the binaryAssetsDirectory option comes before KUBEBUILDER_ASSETS; a missing binary is named', async (t) => {
  const option = scratch();
  exe(join(option, 'etcd'));
  exe(join(option, 'kube-apiserver'));
  const found = await resolveBinaries(request({ KUBEBUILDER_ASSETS: '/nowhere' }, { binaryAssetsDirectory: option }));
  t.is(found.source, 'option');
  t.is(found.kubectl, undefined);
  const error = await t.throwsAsync(resolveBinaries(request({}, { binaryAssetsDirectory: option, garbageCollector: true })), { instanceOf: EnvtestError });
  t.is(error?.reason, 'binaries-missing');
  t.regex(error!.message, /binaryAssetsDirectory \(.*\) has no executable kube-controller-manager \(setup-envtest does not ship kube-controller-manager/);
});

test('with Go absent (no go on PATH) and no KUBEBUILDER_ASSETS, startControlPlane says what is missing and how to get it', async (t) => {
  const saved = { PATH: process.env['PATH'], KUBEBUILDER_ASSETS: process.env['KUBEBUILDER_ASSETS'] };
  process.env['PATH'] = scratch(); // an empty folder: no go, no openssl
  delete process.env['KUBEBUILDER_ASSETS'];
  t.teardown(() => Object.assign(process.env, saved));
  const error = await t.throwsAsync(startControlPlane(), { instanceOf: EnvtestError });
  Object.assign(process.env, saved);
  t.is(error?.reason, 'binaries-missing');
  t.regex(error!.message, /^\[informer\] envtest: no etcd and kube-apiserver: binaryAssetsDirectory is not given, KUBEBUILDER_ASSETS is not set, and go is not on PATH\. /);
  t.regex(error!.message, /setup-envtest@latest use -p path/);
  t.regex(error!.message, /set KUBEBUILDER_ASSETS to the folder it prints/);
});

test('with Go on PATH, the binaries are built from the Go modules once, then found in the cache', async (t) => {
  const bin = scratch();
  const calls = join(bin, 'calls.log');
  // A fake go: `go version` answers, `go build … -o OUT PKG` writes an executable OUT.
  exe(join(bin, 'go'), `#!/bin/sh
echo "$PWD $*" >> ${calls}
if [ "$1" = version ]; then echo "go version go1.26.0 linux/amd64"; exit 0; fi
while [ $# -gt 0 ]; do if [ "$1" = -o ]; then out=$2; fi; shift; done
printf "#!/bin/sh\\n" > "$out"; /bin/chmod +x "$out"
`);
  const cacheDirectory = join(scratch(), 'cache');
  const first = await resolveBinaries(request({ PATH: bin }, { cacheDirectory, garbageCollector: true }));
  t.is(first.source, 'go');
  t.regex(first.etcd, new RegExp(`^${cacheDirectory}/etcd-[0-9a-f]{12}/etcd$`));
  t.regex(first.kubeApiServer, /kube-apiserver-[0-9a-f]{12}\/kube-apiserver$/);
  t.regex(first.kubeControllerManager ?? '', /kube-controller-manager-[0-9a-f]{12}\/kube-controller-manager$/);
  const builds = readFileSync(calls, 'utf8').split('\n').filter((line) => line.includes(' build '));
  t.is(builds.length, 3);
  t.regex(builds[1]!, /test\/cluster\/kube-apiserver build -trimpath -ldflags -s -w -X k8s\.io\/component-base\/version\.gitVersion=v1\.\d+\.\d+ .* k8s\.io\/kubernetes\/cmd\/kube-apiserver$/);
  const second = await resolveBinaries(request({ PATH: bin }, { cacheDirectory, garbageCollector: true }));
  t.deepEqual(second, first);
  t.is(readFileSync(calls, 'utf8').split('\n').filter((line) => line.includes(' build ')).length, 3, 'nothing built again');
  await t.throwsAsync(resolveBinaries(request({ PATH: bin }, { cacheDirectory, buildFromGo: false })), { message: /building from Go modules is off \(buildFromGo: false\)/ });
});

test('a failed go build is an EnvtestError with go\'s last lines', async (t) => {
  const bin = scratch();
  exe(join(bin, 'go'), '#!/bin/sh\nif [ "$1" = version ]; then echo go1.26; exit 0; fi\necho "cannot find module providing package" >&2\nexit 1\n');
  const error = await t.throwsAsync(resolveBinaries(request({ PATH: bin })), { instanceOf: EnvtestError });
  t.is(error?.reason, 'build-failed');
  t.regex(error!.message, /go build of etcd failed:\ncannot find module providing package/);
});

test('options are checked with the house wording', async (t) => {
  await t.throwsAsync(startControlPlane({ crds: 'config/crd' as unknown as string[] }), { instanceOf: TypeError, message: /^\[startControlPlane\] crds must be an array of strings/ });
  await t.throwsAsync(startControlPlane({ startTimeoutMs: -1 }), { instanceOf: TypeError, message: '[startControlPlane] startTimeoutMs must be a finite number > 0, got -1' });
  await t.throwsAsync(startControlPlane({ featureGates: { A: 'yes' } as unknown as Record<string, boolean> }), { instanceOf: TypeError, message: /featureGates must be an object of booleans/ });
});
