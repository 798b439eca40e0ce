import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { cliFailure } from '../cliError.js';
import type { CliOutput } from '../liveScreen.js';
import type { CrdTypesCommand } from '../parseCliArgs.js';
import type { Crd } from './crd.js';
import { clusterCrds } from './clusterCrds.js';
import { generateCrdTypes } from './generateCrdTypes.js';
import { readCrds } from './readCrds.js';

/** What {@link runCrdTypes} needs besides the parsed `crd-types` command. */
export interface RunCrdTypesConfig extends Omit<CrdTypesCommand, 'command'> {
  /** The cluster to read CRDs from; asked for only with `cluster` set. */
  readonly kubeConfig: () => Promise<KubeConfig>;
  readonly stdout: CliOutput;
  readonly signal?: AbortSignal;
}

/**
 * `rx-informer crd-types`: reads CRDs from files and folders and/or a live cluster, keeps those of
 * the groups asked for, writes their types under `out` (see {@link generateCrdTypes}) and prints
 * one line per kind and version.
 *
 * @returns 0.
 * @throws {CliError} when nothing is found or a file cannot be read or written.
 */
export async function runCrdTypes(config: RunCrdTypesConfig): Promise<number> {
  const crds: Crd[] = [];
  try {
    if (config.paths.length > 0) crds.push(...(await readCrds(config.paths)));
    if (config.cluster) crds.push(...(await clusterCrds(await config.kubeConfig(), config.signal)));
  } catch (error) {
    throw cliFailure((error as Error).message.replace(/^\[informer\] /, ''), error);
  }
  if (crds.length === 0) throw cliFailure('the cluster has no CustomResourceDefinition');
  const chosen = config.groups.length === 0 ? crds : crds.filter((crd) => config.groups.includes(crd.spec.group));
  if (chosen.length === 0) throw cliFailure(`no CustomResourceDefinition of the group${config.groups.length > 1 ? 's' : ''} ${config.groups.join(', ')} (found: ${[...new Set(crds.map((crd) => crd.spec.group))].join(', ')})`);
  let files;
  try {
    files = generateCrdTypes(chosen, { importFrom: config.importFrom });
  } catch (error) {
    throw cliFailure((error as Error).message, error);
  }
  for (const file of files) {
    const path = join(config.out, ...file.path.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.text);
  }
  for (const crd of chosen) {
    for (const version of crd.spec.versions.filter((v) => v.served)) {
      config.stdout.write(`${crd.spec.names.kind} ${crd.spec.group}/${version.name} → ${join(config.out, crd.spec.group, version.name, `${crd.spec.names.plural}.ts`)}\n`);
    }
  }
  return 0;
}
