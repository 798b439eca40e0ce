import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { buildFromGo } from './buildFromGo.js';
import { EnvtestError } from './envtestError.js';

/** The programs a control plane runs, as absolute paths, and where they were found. */
export interface ControlPlaneBinaries {
  /** The `etcd` program. */
  readonly etcd: string;
  /** The `kube-apiserver` program. */
  readonly kubeApiServer: string;
  /** Only when the garbage collector was asked for. */
  readonly kubeControllerManager?: string;
  /** When the folder holds one (setup-envtest puts it there); rx-informer itself does not need it. */
  readonly kubectl?: string;
  /** Where they came from: the `binaryAssetsDirectory` option, `KUBEBUILDER_ASSETS`, or a build from Go modules. */
  readonly source: 'option' | 'KUBEBUILDER_ASSETS' | 'go';
}

/** What {@link resolveBinaries} needs to know. @internal */
export interface BinaryRequest {
  readonly binaryAssetsDirectory: string | undefined;
  readonly garbageCollector: boolean;
  readonly buildFromGo: boolean;
  readonly cacheDirectory: string;
  readonly env: NodeJS.ProcessEnv;
  readonly log: (line: string) => void;
}

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The first executable `name` on `PATH`, if any. @internal */
export function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir !== '' && executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

const howToGet =
  'Get them with setup-envtest (`go run sigs.k8s.io/controller-runtime/tools/setup-envtest@latest use -p path`) and set ' +
  'KUBEBUILDER_ASSETS to the folder it prints (etcd, kube-apiserver and kubectl in one folder), pass binaryAssetsDirectory, ' +
  'or put Go (1.26 or newer) on PATH so that rx-informer builds them from Go modules (minutes, once; cached)';

function fromFolder(dir: string, source: 'option' | 'KUBEBUILDER_ASSETS', garbageCollector: boolean): ControlPlaneBinaries {
  const named = source === 'option' ? `binaryAssetsDirectory (${dir})` : `KUBEBUILDER_ASSETS (${dir})`;
  const needed = ['etcd', 'kube-apiserver', ...(garbageCollector ? ['kube-controller-manager'] : [])];
  const missing = needed.filter((name) => !executable(join(dir, name)));
  if (missing.length > 0) {
    const gc = garbageCollector && missing.includes('kube-controller-manager') ? ' (setup-envtest does not ship kube-controller-manager: put one beside the others, or start without garbageCollector)' : '';
    throw new EnvtestError('binaries-missing', `${named} has no executable ${missing.join(', ')}${gc}. ${howToGet}.`);
  }
  const kubectl = join(dir, 'kubectl');
  return {
    etcd: join(dir, 'etcd'),
    kubeApiServer: join(dir, 'kube-apiserver'),
    ...(garbageCollector ? { kubeControllerManager: join(dir, 'kube-controller-manager') } : {}),
    ...(executable(kubectl) ? { kubectl } : {}),
    source,
  };
}

/**
 * Finds the binaries, in this order: the `binaryAssetsDirectory` option, the `KUBEBUILDER_ASSETS`
 * folder, a build from the Go modules shipped with rx-informer (when `go` is on `PATH`). Throws an
 * {@link EnvtestError} (`'binaries-missing'`) that names what was searched and how to get them.
 * @internal
 */
export async function resolveBinaries(request: BinaryRequest): Promise<ControlPlaneBinaries> {
  if (request.binaryAssetsDirectory !== undefined) return fromFolder(request.binaryAssetsDirectory, 'option', request.garbageCollector);
  const assets = request.env['KUBEBUILDER_ASSETS'];
  if (assets !== undefined && assets !== '') return fromFolder(assets, 'KUBEBUILDER_ASSETS', request.garbageCollector);
  const go = onPath('go', request.env);
  if (go === undefined || !request.buildFromGo) {
    const why = go === undefined ? 'go is not on PATH' : 'building from Go modules is off (buildFromGo: false)';
    throw new EnvtestError('binaries-missing', `no etcd and kube-apiserver: binaryAssetsDirectory is not given, KUBEBUILDER_ASSETS is not set, and ${why}. ${howToGet}.`);
  }
  const built = await buildFromGo({ go, cacheDirectory: request.cacheDirectory, garbageCollector: request.garbageCollector, env: request.env, log: request.log });
  return { ...built, source: 'go' };
}
