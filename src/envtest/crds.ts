import { ApiextensionsV1Api, loadAllYaml, type KubeConfig, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { EnvtestError } from './envtestError.js';
import { get, type Tls } from './processes.js';

const crdFile = (name: string): boolean => ['.yaml', '.yml', '.json'].includes(extname(name).toLowerCase());

/**
 * The CustomResourceDefinitions in `paths`: each a file (YAML, several documents allowed, or JSON)
 * or a folder, whose `.yaml`, `.yml` and `.json` files are read (not its sub-folders, as
 * controller-runtime's envtest reads them). Documents of other kinds (a kustomization.yaml) are
 * skipped. A path that does not exist is an error unless `errorIfMissing` is false. @internal
 */
export async function readCrds(paths: readonly string[], errorIfMissing: boolean): Promise<V1CustomResourceDefinition[]> {
  const files: string[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      if (errorIfMissing) throw new EnvtestError('crd-failed', `CRD path ${path} does not exist (errorIfCrdPathMissing: false skips missing paths)`, { cause: error });
      continue;
    }
    if (info.isDirectory()) files.push(...(await readdir(path)).filter(crdFile).sort().map((name) => join(path, name)));
    else files.push(path);
  }
  const crds: V1CustomResourceDefinition[] = [];
  for (const file of files) {
    let documents: unknown[];
    try {
      documents = loadAllYaml(await readFile(file, 'utf8'));
    } catch (error) {
      throw new EnvtestError('crd-failed', `cannot parse ${file}: ${(error as Error).message}`, { cause: error });
    }
    for (const document of documents) {
      const crd = document as V1CustomResourceDefinition | null;
      if (crd?.kind === 'CustomResourceDefinition' && crd.apiVersion === 'apiextensions.k8s.io/v1') crds.push(crd);
    }
  }
  if (errorIfMissing && paths.length > 0 && crds.length === 0) throw new EnvtestError('crd-failed', `no apiextensions.k8s.io/v1 CustomResourceDefinition in ${paths.join(', ')}`);
  return crds;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates each CRD (or replaces it, when one of that name exists), then waits until every one is
 * Established and each served version's plural is in discovery, so that a LIST or an informer
 * started next finds the resource. @internal
 */
export async function installCrds(kubeConfig: KubeConfig, url: string, tls: Tls, crds: readonly V1CustomResourceDefinition[], timeoutMs: number): Promise<void> {
  const api = kubeConfig.makeApiClient(ApiextensionsV1Api);
  await Promise.all(
    crds.map(async (crd) => {
      const name = crd.metadata?.name ?? '';
      try {
        await api.createCustomResourceDefinition({ body: crd });
      } catch (error) {
        if ((error as { code?: unknown }).code !== 409) throw new EnvtestError('crd-failed', `creating CRD ${name} failed: ${(error as Error).message}`, { cause: error });
        const existing = await api.readCustomResourceDefinition({ name });
        await api.replaceCustomResourceDefinition({ name, body: { ...crd, metadata: { ...crd.metadata, resourceVersion: existing.metadata?.resourceVersion } } });
      }
    }),
  );
  const deadline = Date.now() + timeoutMs;
  await Promise.all(
    crds.map(async (crd) => {
      const name = crd.metadata?.name ?? '';
      for (;;) {
        const current = await api.readCustomResourceDefinition({ name });
        const established = current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
        if (established) break;
        if (Date.now() >= deadline) throw new EnvtestError('crd-failed', `CRD ${name} not Established after ${timeoutMs} ms (conditions: ${JSON.stringify(current.status?.conditions ?? [])})`);
        await pause(50);
      }
      for (const version of crd.spec.versions.filter((v) => v.served)) {
        for (;;) {
          const { status, body } = await get(`${url}/apis/${crd.spec.group}/${version.name}`, tls).catch(() => ({ status: 0, body: '' }));
          if (status === 200 && (JSON.parse(body) as { resources?: Array<{ name?: string }> }).resources?.some((r) => r.name === crd.spec.names.plural)) break;
          if (Date.now() >= deadline) throw new EnvtestError('crd-failed', `${crd.spec.names.plural}.${crd.spec.group}/${version.name} not in discovery after ${timeoutMs} ms`);
          await pause(50);
        }
      }
    }),
  );
}

