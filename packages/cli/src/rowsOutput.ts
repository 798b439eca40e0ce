import type { CliOutput } from './liveScreen.js';
import { noResourcesFound } from './noResourcesFound.js';
import { createRowWriter, type RowWriter } from './rowWriter.js';
import { createStatusLog, streamedOutput } from './statusLog.js';
import { rowCells, tableHeaders, tableRows } from './tableRows.js';
import { watchEvent } from './watchEvent.js';
import type { ResolvedWatch, WatchOutput } from './watchOutput.js';
import type { WatchState } from './watchState.js';

/** Options of {@link createRowsOutput}. */
export interface RowsOutputConfig {
  readonly state: WatchState;
  /** The rows. */
  readonly stdout: CliOutput;
  /** Progress, state and errors. */
  readonly stderr: CliOutput;
  readonly indexNames: readonly string[];
  /** `--output-watch-events`: an EVENT column first (ADDED for the list, then ADDED, MODIFIED, DELETED). */
  readonly watchEvents?: boolean;
  /** `--no-headers`. */
  readonly noHeaders?: boolean;
}

/**
 * The table on a pipe, as `kubectl get -w` prints it: once synced, a row per object by key (or, for
 * none, kubectl get's `No resources found …` on stderr); then one row per change (the deleted
 * object's last state for a delete), in columns that only ever widen. Everything else goes to stderr.
 *
 * @param config streams, state and layout flags.
 */
export function createRowsOutput(config: RowsOutputConfig): WatchOutput {
  const { stdout, watchEvents = false } = config;
  const messages = createStatusLog({ state: config.state, out: config.stderr, indexNames: config.indexNames });
  let watch: ResolvedWatch | undefined;
  let writer: RowWriter | undefined;
  let started = false;
  const print = (rows: readonly (readonly string[])[]): void => {
    if (!writer || rows.length === 0) return;
    stdout.write(`${writer.lines(rows).join('\n')}\n`);
  };
  return streamedOutput(messages, {
    resolved(resolved) {
      watch = resolved;
      const headers = tableHeaders(resolved.columns);
      // kubectl sizes EVENT for its longest value, MODIFIED, from the start.
      writer = createRowWriter({ headers: watchEvents ? ['EVENT', ...headers] : headers, noHeaders: config.noHeaders ?? false, ...(watchEvents ? { minWidths: ['MODIFIED'.length] } : {}) });
    },
    update(_snapshot, changes) {
      if (!started || !watch) return;
      const now = Date.now();
      const rows = changes.flatMap((change) => {
        const event = watchEvent(change, watch!.resource);
        if (!event) return [];
        const cells = rowCells(event.object, watch!.columns, now);
        return [watchEvents ? [event.type, ...cells] : cells];
      });
      print(rows);
    },
    synced(snapshot) {
      started = true;
      if (!watch) return;
      const rows = tableRows(snapshot, { columns: watch.columns, now: Date.now() }).map((row) => (watchEvents ? ['ADDED', ...row.cells] : row.cells));
      print(rows);
      if (rows.length === 0) config.stderr.write(`${noResourcesFound(watch.namespace)}\n`);
    },
  });
}
