import { isTombstone, type KubeObject, type Notification } from '../index.js';
import type { CliOutput } from './liveScreen.js';
import { createPlainOutput, type PlainOutputConfig } from './plainOutput.js';
import type { WatchOutput } from './watchOutput.js';

/**
 * `-o json`: every notification as one JSON line on stdout (see {@link jsonChange}); progress,
 * sync and errors go to stderr as plain lines, so stdout stays machine-readable.
 *
 * @param stdout where the JSON lines go.
 * @param config the plain-line settings, with `stdout` replaced by stderr.
 */
export function createJsonOutput(stdout: CliOutput, config: PlainOutputConfig): WatchOutput {
  const messages = createPlainOutput({ ...config, table: false, statusLines: false });
  return {
    ...messages,
    update(snapshot, changes) {
      for (const change of changes) stdout.write(`${JSON.stringify(jsonChange(change))}\n`);
      messages.update(snapshot, changes);
    },
    close: () => undefined,
  };
}

/** The JSON line of a change: `{"type":"add","key":"ns/a","object":{…}}`; tombstones add `"finalStateUnknown":true`. */
export function jsonChange(change: Notification<KubeObject>): Record<string, unknown> {
  if (change.type !== 'delete' || !isTombstone(change.object)) return { type: change.type, key: change.key, object: change.object };
  return { type: 'delete', key: change.key, object: change.object.object ?? null, finalStateUnknown: true };
}
