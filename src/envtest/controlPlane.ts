import type { KubeConfig } from '@kubernetes/client-node';
import type { ControlPlaneBinaries } from './binaries.js';

/** Options of {@link startControlPlane}; every one may be left out. */
export interface ControlPlaneOptions {
  /**
   * A folder holding `etcd` and `kube-apiserver` (and `kube-controller-manager` for
   * `garbageCollector`). Default: the `KUBEBUILDER_ASSETS` environment variable (setup-envtest's
   * folder), else a build from Go modules when `go` is on `PATH`.
   */
  readonly binaryAssetsDirectory?: string;
  /** Build the binaries from the Go modules rx-informer ships when neither folder is given. Default `true`. */
  readonly buildFromGo?: boolean;
  /** Where binaries built from Go modules are kept. Default `$XDG_CACHE_HOME/rx-informer-envtest` (`~/.cache/…`). */
  readonly cacheDirectory?: string;
  /** CRD files (YAML or JSON) or folders of them, installed before `startControlPlane` resolves, each Established. */
  readonly crds?: readonly string[];
  /** A CRD path that does not exist (or paths holding no CRD) fail the start. Default `true`. */
  readonly errorIfCrdPathMissing?: boolean;
  /**
   * Also run kube-controller-manager with only its garbage collector, so that objects whose owner
   * is deleted are deleted too. Default `false`. (It finds a newly installed CRD's kind within 30 s.)
   */
  readonly garbageCollector?: boolean;
  /** kube-apiserver feature gates, added to (or overriding) the default `WatchCacheInitializationPostStartHook=true`. */
  readonly featureGates?: Readonly<Record<string, boolean>>;
  /** More kube-apiserver flags, `--name=value` each, after the defaults (a flag given twice: the last wins). */
  readonly apiServerFlags?: readonly string[];
  /** More etcd flags, `--name=value` each. */
  readonly etcdFlags?: readonly string[];
  /** How long to wait for `/readyz` (and each CRD). Default 60,000 ms. */
  readonly startTimeoutMs?: number;
  /** How long `stop()` waits after SIGTERM before SIGKILL (all processes at once). Default 500 ms; 0 kills at once. */
  readonly stopGraceMs?: number;
  /** Where progress lines go (a build from Go modules takes minutes). Default: stderr. */
  readonly log?: (line: string) => void;
}

/** A user of the control plane: the common name and organizations of a client certificate. */
export interface ControlPlaneUser {
  /** The user name the apiserver sees (the certificate's CN), e.g. `'alice'` or `'system:serviceaccount:ns:name'`. */
  readonly name: string;
  /** The groups (the certificate's O entries). `system:authenticated` is added by the server. */
  readonly groups?: readonly string[];
  /** The namespace of the KubeConfig's context. Default `'default'`. */
  readonly namespace?: string;
}

/** A running etcd + kube-apiserver (+ kube-controller-manager), from {@link startControlPlane}. */
export interface ControlPlane {
  /** The apiserver, `https://127.0.0.1:<port>`. */
  readonly url: string;
  /** etcd's client URL, `http://127.0.0.1:<port>` (no TLS). */
  readonly etcdUrl: string;
  /** A KubeConfig of the user `admin`, group `system:masters` (every right), namespace `default`. */
  readonly kubeConfig: KubeConfig;
  /** The same KubeConfig as a file, for kubectl or a child process (`KUBECONFIG`). */
  readonly kubeConfigPath: string;
  /** The temporary folder holding certificates, logs (`etcd.log`, `kube-apiserver.log`, …) and etcd's data; removed by `stop()`. */
  readonly dir: string;
  /** The binaries it runs, and where they came from. */
  readonly binaries: ControlPlaneBinaries;
  /** Milliseconds from the call of `startControlPlane` to ready (CRDs established included). */
  readonly startupMs: number;
  /**
   * A KubeConfig for another user, authenticated by a new client certificate with `user.name` as
   * CN and `user.groups` as O: for RBAC tests (such a user has no right until a RoleBinding gives
   * one). Also written to `<dir>/kubeconfig-<name>`, whose path is the `path` property.
   */
  kubeConfigFor(user: ControlPlaneUser): Promise<{ readonly kubeConfig: KubeConfig; readonly path: string }>;
  /** Installs more CRDs (files or folders) and waits until they are Established and discoverable. */
  installCrds(paths: readonly string[]): Promise<void>;
  /**
   * A fault for resilience tests: stops kube-apiserver, leaving etcd and its data. SIGTERM (clients
   * see their watches end) and a wait of up to 30 s, or with `kill: true` SIGKILL (clients see a
   * reset mid-stream). {@link ControlPlane.startApiServer} brings it back.
   */
  stopApiServer(options?: {
    /** SIGKILL at once instead of SIGTERM and a wait. Default `false`. */
    readonly kill?: boolean;
  }): Promise<void>;
  /**
   * Starts kube-apiserver again after {@link ControlPlane.stopApiServer}: same port, certificates
   * and etcd, plus `flags` for this start only (e.g. `--watch-cache-sizes=configmaps#0`). Resolves
   * when `/readyz` answers. A restart's new watch cache starts at etcd's current revision, so a
   * watch from an older resourceVersion may get 410 Gone.
   */
  startApiServer(options?: {
    /** Extra kube-apiserver flags for this start only, e.g. `--watch-cache-sizes=configmaps#0`. Default: none. */
    readonly flags?: readonly string[];
  }): Promise<void>;
  /** Stops everything it started and removes {@link ControlPlane.dir}. Idempotent; resolves when nothing is left. */
  stop(): Promise<void>;
  /** `await using plane = await startControlPlane()` stops it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void>;
}
