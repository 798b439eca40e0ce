import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { isCrd, type Crd } from './crd.js';

/**
 * The CustomResourceDefinitions in YAML or JSON files: each path a file, or a folder whose `.yaml`,
 * `.yml` and `.json` files are read (and its subfolders', in name order). Every document of a
 * multi-document file is looked at, and the items of a `kind: List`; documents that are not v1 CRDs
 * (a `kustomization.yaml`, a ValidatingAdmissionPolicy beside the CRDs) are passed over.
 *
 * ## Example
 * ```ts
 * const crds = await readCrds(['config/crd/standard']);
 * crds.map((crd) => crd.spec.names.kind); // → ['BackendTLSPolicy', 'GatewayClass', 'Gateway', …]
 * ```
 *
 * @param paths files and folders.
 * @returns the CRDs, in the order found.
 * @throws {Error} when a path does not exist, a file is not valid YAML (with the file and line),
 * a CRD is `apiextensions.k8s.io/v1beta1` (it has another shape: convert it first), or no CRD is found at all.
 */
export async function readCrds(paths: readonly string[]): Promise<Crd[]> {
  const crds: Crd[] = [];
  for (const path of paths) {
    for (const file of await filesOf(path)) crds.push(...crdsInText(await readFile(file, 'utf8'), file));
  }
  if (crds.length === 0) throw new Error(`no CustomResourceDefinition found in ${paths.join(', ')}`);
  return crds;
}

/**
 * The CRDs in one file's text (YAML, so JSON too).
 *
 * @param text the file's contents.
 * @param source the file's name, for errors.
 */
export function crdsInText(text: string, source: string): Crd[] {
  const crds: Crd[] = [];
  for (const document of parseAllDocuments(text)) {
    const error = document.errors[0];
    if (error !== undefined) throw new Error(`${source}:${error.linePos?.[0].line ?? '?'}: ${error.message.split('\n')[0]}`);
    const value: unknown = document.toJS({ maxAliasCount: -1 });
    const items = isList(value) ? value.items : [value];
    for (const item of items) {
      if (!isCrd(item)) continue;
      if (item.apiVersion !== 'apiextensions.k8s.io/v1') throw new Error(`${source}: ${item.metadata?.name ?? 'a CustomResourceDefinition'} is ${item.apiVersion}; only apiextensions.k8s.io/v1 is read`);
      crds.push(item);
    }
  }
  return crds;
}

function isList(value: unknown): value is { items: unknown[] } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { items?: unknown }).items) && /List$/.test(String((value as { kind?: unknown }).kind));
}

async function filesOf(path: string): Promise<string[]> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new Error(error.code === 'ENOENT' ? `no such file or folder: ${path}` : `cannot read ${path}: ${error.message}`);
  });
  if (!info.isDirectory()) return [path];
  const files: string[] = [];
  for (const entry of (await readdir(path, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) files.push(...(await filesOf(child)));
    else if (['.yaml', '.yml', '.json'].includes(extname(entry.name))) files.push(child);
  }
  return files;
}
