import type { KubeConfig } from '@kubernetes/client-node';
import { watch } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { BehaviorSubject, Observable } from 'rxjs';
import type { ClusterEngagement, FleetProvider } from './clusterEngagement.js';
import { loadKubeConfig } from './loadKubeConfig.js';

/** Options of {@link kubeconfigDirectory}. */
export interface KubeconfigDirectoryOptions {
  /** The cluster a file is; default its name without the extension (`east.yaml` → `east`). `undefined` skips the file. */
  readonly clusterName?: (fileName: string) => string | undefined;
  /** Told of a file that is not a usable kubeconfig (it is skipped; an engaged cluster keeps its credentials). */
  readonly onInvalid?: (fileName: string, error: unknown) => void;
}

/**
 * A provider of the clusters whose kubeconfigs are files in `directory`, one cluster per file:
 * a file added engages its cluster, a file changed re-engages it with the new credentials, a
 * file removed releases it. Names starting with a dot are skipped (editors' temporary files, and
 * the `..data` folder of a mounted Secret or ConfigMap, whose files are read through their links).
 * A file that does not parse yet (written half) is reported to `onInvalid` and read again at the
 * next change.
 *
 * The directory is watched with `fs.watch`; every event starts a rescan of the whole directory
 * (the events name files unreliably: renames, editors' swaps, a mounted Secret's link swap), and
 * events during a rescan make one more. The directory must exist: a missing or unreadable one
 * ends the provider with the error.
 *
 * @param directory the folder of kubeconfig files.
 * @param options cluster names and the report of bad files.
 */
export function kubeconfigDirectory(directory: string, options: KubeconfigDirectoryOptions = {}): FleetProvider {
  const clusterName = options.clusterName ?? ((fileName: string) => fileName.slice(0, fileName.length - extname(fileName).length) || fileName);
  const onInvalid = options.onInvalid ?? (() => undefined);
  return new Observable<ClusterEngagement>((subscriber) => {
    const engaged = new Map<string, { readonly cluster: string; text: string; readonly credentials: BehaviorSubject<KubeConfig> }>(); // by file name
    let closed = false;
    let scanning = false;
    let again = false;

    const release = (file: string): void => {
      const entry = engaged.get(file);
      if (entry === undefined) return;
      engaged.delete(file);
      entry.credentials.complete();
    };
    const seen = (file: string, text: string): void => {
      const entry = engaged.get(file);
      if (entry?.text === text) return;
      const cluster = clusterName(file);
      if (cluster === undefined) return release(file);
      let kubeConfig: KubeConfig;
      try {
        kubeConfig = loadKubeConfig(text, `kubeconfig file ${join(directory, file)}`);
      } catch (error) {
        return onInvalid(file, error);
      }
      if (entry !== undefined) {
        entry.text = text;
        return entry.credentials.next(kubeConfig);
      }
      const credentials = new BehaviorSubject(kubeConfig);
      engaged.set(file, { cluster, text, credentials });
      subscriber.next({ cluster, credentials$: credentials.asObservable() });
    };
    const scanOnce = async (): Promise<void> => {
      const names = (await readdir(directory)).filter((name) => !name.startsWith('.'));
      const texts = await Promise.all(names.map((name) => readFile(join(directory, name), 'utf8').catch(() => undefined))); // gone meanwhile, or a folder
      if (closed) return;
      const present = new Set<string>();
      names.forEach((name, at) => {
        const text = texts[at];
        if (text === undefined) return;
        present.add(name);
        seen(name, text);
      });
      for (const file of [...engaged.keys()]) if (!present.has(file)) release(file);
    };
    const scan = async (): Promise<void> => {
      if (scanning) {
        again = true;
        return;
      }
      scanning = true;
      try {
        do {
          again = false;
          await scanOnce();
        } while (again && !closed);
      } catch (error) {
        if (!closed) subscriber.error(error);
      } finally {
        scanning = false;
      }
    };

    const watcher = watch(directory, { persistent: true }, () => void scan());
    watcher.on('error', (error) => subscriber.error(error));
    void scan();
    return () => {
      closed = true;
      watcher.close();
      engaged.clear();
    };
  });
}
