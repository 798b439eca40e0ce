import { KubeConfig } from '@kubernetes/client-node';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, optionChecks, type OptionChecks } from '../options/optionChecks.js';
import { resolveBinaries } from './binaries.js';
import { issueCertificate, makePki, type Pki } from './certificates.js';
import type { ControlPlane, ControlPlaneOptions, ControlPlaneUser } from './controlPlane.js';
import { installCrds, readCrds } from './crds.js';
import { EnvtestError } from './envtestError.js';
import { freePorts, startProcess, stopProcess, waitUntilOk, type RunningProcess, type Tls } from './processes.js';

/** Control planes not yet stopped: the process's `exit` handler kills what they run. */
const running = new Set<{ processes: RunningProcess[]; dir: string }>();
let exitHandlerInstalled = false;
function killOnExit(): void {
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  // An exit without stop() (process.exit, the end of a runner's worker): synchronous SIGKILLs and
  // removal here; the watchdog covers the deaths that run no handler (SIGKILL, a fatal signal).
  process.once('exit', () => {
    for (const plane of running) {
      for (const p of plane.processes) {
        if (p.hasExited()) continue;
        try {
          process.kill(-p.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      rmSync(plane.dir, { recursive: true, force: true });
    }
  });
}

const watchdogFile = (): string => {
  const js = fileURLToPath(new URL('./watchdog.js', import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL('./watchdog.ts', import.meta.url));
};

/** Starts the watchdog (see watchdog.ts) in its own session, unreferenced. */
function startWatchdog(dir: string): ChildProcess {
  const watchdog = spawn(process.execPath, ['--no-warnings', watchdogFile(), dir], { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  watchdog.unref();
  (watchdog.channel as { unref?: () => void } | undefined)?.unref?.();
  return watchdog;
}

function adminKubeConfig(url: string, pki: Pki, user: string, cert: string, key: string, namespace: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  const b64 = (text: string): string => Buffer.from(text).toString('base64');
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'envtest', server: url, caData: b64(pki.ca.cert), skipTLSVerify: false }],
    users: [{ name: user, certData: b64(cert), keyData: b64(key) }],
    contexts: [{ name: `${user}@envtest`, cluster: 'envtest', user, namespace }],
    currentContext: `${user}@envtest`,
  });
  return kubeConfig;
}

const flag = (name: string, value: string | number): string => `--${name}=${value}`;

/** An array of strings, or `undefined`; anything else fails with the house wording. */
function stringArray(check: OptionChecks, name: string, value: unknown): readonly string[] | undefined {
  if (value !== undefined && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) check.fail(`${name} must be an array of strings, got ${describe(value)}`);
  return value as readonly string[] | undefined;
}

/**
 * Starts a real Kubernetes control plane for tests: etcd and kube-apiserver (and, with
 * `garbageCollector`, kube-controller-manager running only its garbage collector) on free
 * 127.0.0.1 ports, with certificates made for it (openssl), in a temporary folder. Resolves once
 * `/readyz` answers, the `default` namespace exists and the `crds` are Established and in
 * discovery; hands back an admin KubeConfig.
 *
 * The binaries come from the `binaryAssetsDirectory` option, else `KUBEBUILDER_ASSETS`
 * (setup-envtest's folder), else a build from Go modules when `go` is on `PATH`; when none is
 * there it throws an {@link EnvtestError} (`'binaries-missing'`) saying how to get them.
 *
 * `stop()` ends everything and removes the folder. When the test process dies without it (even
 * by `kill -9`), a watchdog process does the same: no etcd, apiserver or folder is left behind.
 *
 * ```ts
 * import { informer, listWatch } from 'rx-informer';
 * import { startControlPlane } from 'rx-informer/envtest';
 *
 * const plane = await startControlPlane({ crds: ['config/crd/bases'] });
 * try {
 *   const cache = informer(listWatch(plane.kubeConfig, { version: 'v1', plural: 'configmaps', namespace: 'test' }));
 *   // …
 * } finally {
 *   await plane.stop();
 * }
 * ```
 */
export async function startControlPlane(options?: ControlPlaneOptions): Promise<ControlPlane> {
  const started = Date.now();
  const check = optionChecks('startControlPlane', options);
  const o = options ?? {};
  const strings = (name: string, value: unknown): readonly string[] | undefined => stringArray(check, name, value);
  if (o.featureGates !== undefined && (typeof o.featureGates !== 'object' || o.featureGates === null || Object.values(o.featureGates).some((v) => typeof v !== 'boolean')))
    check.fail('featureGates must be an object of booleans, got ' + JSON.stringify(o.featureGates));
  const config = {
    binaryAssetsDirectory: check.nonEmptyString('binaryAssetsDirectory', o.binaryAssetsDirectory),
    buildFromGo: check.boolean('buildFromGo', o.buildFromGo) ?? true,
    cacheDirectory: check.nonEmptyString('cacheDirectory', o.cacheDirectory) ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'rx-informer-envtest'),
    crds: strings('crds', o.crds) ?? [],
    errorIfCrdPathMissing: check.boolean('errorIfCrdPathMissing', o.errorIfCrdPathMissing) ?? true,
    garbageCollector: check.boolean('garbageCollector', o.garbageCollector) ?? false,
    featureGates: { WatchCacheInitializationPostStartHook: true, ...o.featureGates },
    apiServerFlags: strings('apiServerFlags', o.apiServerFlags) ?? [],
    etcdFlags: strings('etcdFlags', o.etcdFlags) ?? [],
    startTimeoutMs: check.positive('startTimeoutMs', o.startTimeoutMs) ?? 60_000,
    stopGraceMs: check.nonNegative('stopGraceMs', o.stopGraceMs) ?? 500,
    log: check.func('log', o.log) ?? ((line: string) => process.stderr.write(`${line}\n`)),
  };

  // Read first: a CRD that does not parse fails before anything is started.
  const crds = await readCrds(config.crds, config.errorIfCrdPathMissing);
  const binaries = await resolveBinaries({ ...config, env: process.env });

  const dir = mkdtempSync(join(tmpdir(), 'rx-envtest-'));
  const watchdog = startWatchdog(dir);
  const processes: RunningProcess[] = [];
  const entry = { processes, dir };
  running.add(entry);
  killOnExit();
  const track = (p: RunningProcess): RunningProcess => {
    processes.push(p);
    if (watchdog.connected) watchdog.send({ pid: p.pid }, () => {});
    return p;
  };

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      // All at once: etcd's data is thrown away, so nothing needs the apiserver to finish first.
      await Promise.all(processes.map((p) => stopProcess(p, config.stopGraceMs)));
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      running.delete(entry);
      if (watchdog.exitCode === null && watchdog.signalCode === null) {
        watchdog.ref();
        const gone = new Promise((resolve) => watchdog.once('exit', resolve));
        if (watchdog.connected) watchdog.disconnect();
        else watchdog.kill('SIGTERM');
        await gone;
      }
    })());

  try {
    const pkiDir = join(dir, 'pki');
    mkdirSync(pkiDir);
    const [pki, [etcdPort = 0, etcdPeerPort = 0, apiPort = 0, kcmPort = 0]] = await Promise.all([makePki(pkiDir), freePorts(4)]);
    const url = `https://127.0.0.1:${apiPort}`;
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const peerUrl = `http://127.0.0.1:${etcdPeerPort}`;
    const adminTls: Tls = { ca: pki.ca.cert, cert: pki.admin.cert, key: pki.admin.key };

    // Both at once: kube-apiserver retries etcd until it answers.
    const etcd = track(
      startProcess('etcd', binaries.etcd, [
        flag('name', 'envtest'), flag('data-dir', join(dir, 'etcd-data')),
        flag('listen-client-urls', etcdUrl), flag('advertise-client-urls', etcdUrl),
        flag('listen-peer-urls', peerUrl), flag('initial-advertise-peer-urls', peerUrl), flag('initial-cluster', `envtest=${peerUrl}`),
        '--unsafe-no-fsync', flag('watch-progress-notify-interval', '5s'), flag('log-level', 'warn'),
        ...config.etcdFlags,
      ], join(dir, 'etcd.log')),
    );
    const gates = Object.entries(config.featureGates).map(([gate, on]) => `${gate}=${on}`).join(',');
    const apiServerArgs = [
      flag('etcd-servers', etcdUrl),
      flag('bind-address', '127.0.0.1'), flag('advertise-address', '127.0.0.1'), flag('secure-port', apiPort),
      flag('cert-dir', join(dir, 'apiserver-certs')),
      flag('tls-cert-file', pki.apiServer.certFile), flag('tls-private-key-file', pki.apiServer.keyFile),
      flag('client-ca-file', pki.ca.certFile), flag('authorization-mode', 'RBAC'),
      flag('service-cluster-ip-range', '10.0.0.0/24'),
      flag('service-account-issuer', `${url}/`),
      flag('service-account-key-file', pki.serviceAccountPublicKeyFile), flag('service-account-signing-key-file', pki.serviceAccountKeyFile),
      flag('disable-admission-plugins', 'ServiceAccount'), flag('allow-privileged', 'true'),
      flag('endpoint-reconciler-type', 'none'),
      flag('feature-gates', gates),
      flag('profiling', 'false'),
      ...config.apiServerFlags,
    ];
    let apiServer = track(startProcess('kube-apiserver', binaries.kubeApiServer, apiServerArgs, join(dir, 'kube-apiserver.log')));
    await waitUntilOk(apiServer, `${url}/readyz`, adminTls, config.startTimeoutMs, [etcd]);
    await waitUntilOk(apiServer, `${url}/api/v1/namespaces/default`, adminTls, config.startTimeoutMs, [etcd]);

    const kubeConfig = adminKubeConfig(url, pki, 'admin', pki.admin.cert, pki.admin.key, 'default');
    const kubeConfigPath = join(dir, 'kubeconfig');
    writeFileSync(kubeConfigPath, kubeConfig.exportConfig(), { mode: 0o600 });

    const kcmBinary = binaries.kubeControllerManager;
    const controllerManager =
      config.garbageCollector && kcmBinary
        ? track(
            startProcess('kube-controller-manager', kcmBinary, [
              flag('kubeconfig', kubeConfigPath), flag('authentication-kubeconfig', kubeConfigPath), flag('authorization-kubeconfig', kubeConfigPath),
              flag('bind-address', '127.0.0.1'), flag('secure-port', kcmPort), flag('cert-dir', join(dir, 'kcm-certs')),
              flag('controllers', 'garbagecollector'), flag('leader-elect', 'false'), flag('concurrent-gc-syncs', 5),
            ], join(dir, 'kube-controller-manager.log')),
          )
        : undefined;
    const waits: Array<Promise<void>> = [installCrds(kubeConfig, url, adminTls, crds, config.startTimeoutMs)];
    if (controllerManager) waits.push(waitUntilOk(controllerManager, `https://127.0.0.1:${kcmPort}/healthz`, { rejectUnauthorized: false }, config.startTimeoutMs, [etcd, apiServer]));
    await Promise.all(waits);

    let users = 0;
    const plane: ControlPlane = {
      url,
      etcdUrl,
      kubeConfig,
      kubeConfigPath,
      dir,
      binaries,
      startupMs: Date.now() - started,
      async kubeConfigFor(user: ControlPlaneUser) {
        const userCheck = optionChecks('kubeConfigFor', user, false);
        const name = userCheck.nonEmptyString('name', user.name)!;
        const groups = stringArray(userCheck, 'groups', user.groups) ?? [];
        const namespace = userCheck.nonEmptyString('namespace', user.namespace) ?? 'default';
        if (stopping) throw new EnvtestError('stopped', 'kubeConfigFor after stop()');
        const pair = await issueCertificate(pkiDir, `user-${++users}`, name, groups, 'client');
        const userKubeConfig = adminKubeConfig(url, pki, name, pair.cert, pair.key, namespace);
        const path = join(dir, `kubeconfig-${users}`);
        writeFileSync(path, userKubeConfig.exportConfig(), { mode: 0o600 });
        return { kubeConfig: userKubeConfig, path };
      },
      async installCrds(paths: readonly string[]) {
        if (stopping) throw new EnvtestError('stopped', 'installCrds after stop()');
        await installCrds(kubeConfig, url, adminTls, await readCrds(stringArray(optionChecks('installCrds', {}), 'paths', paths) ?? [], true), config.startTimeoutMs);
      },
      async stopApiServer(stopOptions?: { readonly kill?: boolean }) {
        const kill = optionChecks('stopApiServer', stopOptions).boolean('kill', stopOptions?.kill) ?? false;
        if (stopping) throw new EnvtestError('stopped', 'stopApiServer after stop()');
        await stopProcess(apiServer, kill ? 0 : Math.max(config.stopGraceMs, 30_000));
      },
      async startApiServer(startOptions?: { readonly flags?: readonly string[] }) {
        const flags = stringArray(optionChecks('startApiServer', startOptions), 'flags', startOptions?.flags) ?? [];
        if (stopping) throw new EnvtestError('stopped', 'startApiServer after stop()');
        if (!apiServer.hasExited()) throw new EnvtestError('start-failed', 'startApiServer: kube-apiserver is running (stopApiServer first)');
        apiServer = track(startProcess('kube-apiserver', binaries.kubeApiServer, [...apiServerArgs, ...flags], join(dir, 'kube-apiserver.log')));
        await waitUntilOk(apiServer, `${url}/readyz`, adminTls, config.startTimeoutMs, [etcd]);
      },
      stop,
      [Symbol.asyncDispose]: stop,
    };
    return plane;
  } catch (error) {
    await stop();
    throw error;
  }
}
