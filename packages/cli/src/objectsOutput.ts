import type { CliOutput } from './liveScreen.js';
import { createStatusLog, streamedOutput } from './statusLog.js';
import { toYaml } from './toYaml.js';
import { watchEvent, type WatchEvent } from './watchEvent.js';
import type { ResolvedWatch, WatchOutput } from './watchOutput.js';
import type { WatchState } from './watchState.js';

/** Options of {@link createObjectsOutput}. */
export interface ObjectsOutputConfig {
  readonly state: WatchState;
  /** The objects. */
  readonly stdout: CliOutput;
  /** Progress, state and errors. */
  readonly stderr: CliOutput;
  readonly indexNames: readonly string[];
  readonly format: 'name' | 'json' | 'yaml';
  /** `--output-watch-events`: `{"type":"ADDED","object":…}` around each object (json, yaml). */
  readonly watchEvents?: boolean;
}

/**
 * `-o name|json|yaml`, as `kubectl get -w` prints them: once synced, every object by key, then the
 * object of each change. `name` is `kind.group/name` a line; `json` is one object a line (with
 * `--output-watch-events`, kubectl's `{"type":"ADDED","object":{…}}` lines); `yaml` is a document
 * each, `---` between. Everything else goes to stderr, so stdout stays machine-readable.
 *
 * @param config streams, state and format.
 */
export function createObjectsOutput(config: ObjectsOutputConfig): WatchOutput {
  const { stdout, format, watchEvents = false } = config;
  const messages = createStatusLog({ state: config.state, out: config.stderr, indexNames: config.indexNames });
  let watch: ResolvedWatch | undefined;
  let started = false;
  let documents = 0;
  const print = (event: WatchEvent): void => {
    const meta = event.object.metadata ?? {};
    if (format === 'name') {
      const { kind, group } = watch!.resource;
      stdout.write(`${kind.toLowerCase()}${group ? `.${group}` : ''}/${meta.name ?? ''}\n`);
      return;
    }
    const value = watchEvents ? { type: event.type, object: event.object } : event.object;
    if (format === 'json') stdout.write(`${JSON.stringify(value)}\n`);
    else stdout.write(`${documents++ > 0 ? '---\n' : ''}${toYaml(value)}`);
  };
  return streamedOutput(messages, {
    resolved: (resolved) => void (watch = resolved),
    update(_snapshot, changes) {
      if (!started || !watch) return;
      for (const change of changes) {
        const event = watchEvent(change, watch.resource);
        if (event) print(event);
      }
    },
    synced(snapshot) {
      started = true;
      if (!watch) return;
      for (const key of [...snapshot.keys()].sort()) print({ type: 'ADDED', object: snapshot.get(key)! });
    },
  });
}
