/**
 * Real CRDs for the tests, from the Go modules that ship them (Gateway API, Cluster API, Istio),
 * fetched through the Go module proxy with `go mod download` into Go's module cache (outside the
 * repository; the second run reads the cache). Nothing of them is committed. Without Go, or without
 * the proxy, the tests that need them fail and say so: they are never skipped.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The folder of `module@version` in Go's module cache, downloading it first when it is not there.
 *
 * @throws {Error} naming the module and what to do, when Go is missing or the download fails.
 */
export async function goModuleDir(module: string, version: string): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'crd-gomod-'));
  try {
    await writeFile(join(scratch, 'go.mod'), 'module crdtypes.test\n');
    let stdout: string;
    try {
      ({ stdout } = await run('go', ['mod', 'download', '-json', `${module}@${version}`], { cwd: scratch, maxBuffer: 16 << 20 }));
    } catch (error) {
      const { code, stdout: out } = error as NodeJS.ErrnoException & { stdout?: string };
      if (code === 'ENOENT') throw new Error(`these tests read real CRDs from Go modules: install Go (the go command) to fetch ${module}@${version} from the Go module proxy`);
      throw new Error(`go mod download ${module}@${version} failed (is the Go module proxy reachable?): ${out || (error as Error).message}`);
    }
    const info = JSON.parse(stdout) as { Dir?: string; Error?: string };
    if (info.Dir === undefined) throw new Error(`go mod download ${module}@${version}: ${info.Error ?? 'no folder'}`);
    return info.Dir;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The CRD inputs of the real-CRD tests: module, version, and the CRD files or folders in it. */
export const realCrdSources = {
  gatewayStandard: { module: 'sigs.k8s.io/gateway-api', version: 'v1.6.3', paths: ['config/crd/standard'] },
  gatewayExperimental: { module: 'sigs.k8s.io/gateway-api', version: 'v1.6.3', paths: ['config/crd/experimental'] },
  clusterApiCore: { module: 'sigs.k8s.io/cluster-api', version: 'v1.14.2', paths: ['core/config/crd/bases'] },
  istio: { module: 'istio.io/api', version: 'v1.32.0', paths: ['kubernetes/customresourcedefinitions.gen.yaml'] },
} as const;

/** The absolute CRD paths of one of {@link realCrdSources}, its module downloaded. */
export async function realCrdPaths(source: { readonly module: string; readonly version: string; readonly paths: readonly string[] }): Promise<string[]> {
  const dir = await goModuleDir(source.module, source.version);
  return source.paths.map((path) => join(dir, path));
}
