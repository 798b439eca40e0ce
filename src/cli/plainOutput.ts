import { formatIndexSummary, indexSummary } from './indexSummary.js';
import type { CliOutput } from './liveScreen.js';
import { renderTable } from './renderTable.js';
import { progressLine, statusLine } from './statusText.js';
import { tableHeaders, tableRows } from './tableRows.js';
import type { ResolvedWatch, WatchOutput } from './watchOutput.js';
import type { WatchState } from './watchState.js';

/** Options of {@link createPlainOutput}. */
export interface PlainOutputConfig {
  readonly state: WatchState;
  /** Progress, sync, table and status lines. */
  readonly stdout: CliOutput;
  /** Errors and retries. */
  readonly stderr: CliOutput;
  readonly indexNames: readonly string[];
  /** Print the table and index summaries at sync (default true). */
  readonly table?: boolean;
  /** Print a status line each tick when something changed, and a summary at the end (default true). */
  readonly statusLines?: boolean;
  /** Status line period in ms (default 1 000). */
  readonly tickMs?: number;
}

/**
 * Plain lines for a pipe or a log, no cursor control: list progress per page, the watch state as
 * it changes, the whole table and the index summaries once synced, then a status line a second
 * while events flow, and a summary at the end. Errors go to stderr.
 *
 * @param config streams, state and what to print.
 */
export function createPlainOutput(config: PlainOutputConfig): WatchOutput {
  const { state, stdout, stderr, indexNames, table = true, statusLines = true } = config;
  const log = (line: string): void => void stdout.write(`${line}\n`);
  let watch: ResolvedWatch | undefined;
  let last = '';
  const plural = (): string => watch?.resource.plural ?? 'objects';
  return {
    tickMs: config.tickMs ?? 1000,
    unreachable: (message, delayMs) => void stderr.write(`[informer] ${message}; retrying in ${(delayMs / 1000).toFixed(1)}s\n`),
    resolved: (resolved) => void (watch = resolved),
    status(status) {
      switch (status.type) {
        case 'LISTING':
          if (status.page > 0) log(`listing ${plural()}: ${progressLine(state.list, Date.now()).replace(/^syncing (· )?/, '')}`);
          break;
        case 'WATCHING':
          return log(`watching ${plural()} from resourceVersion ${status.resourceVersion}`);
        case 'BACKING_OFF':
          return log(`backing off ${(status.delay / 1000).toFixed(1)}s (attempt ${status.attempt}, then ${status.next})`);
        case 'RELISTING':
          return log(`relisting ${plural()} (${status.reason})`);
        case 'ERROR':
          return void stderr.write(`${status.error.message}\n`);
      }
    },
    update: () => undefined,
    synced(snapshot) {
      const took = state.syncMs === undefined ? '' : ` in ${(state.syncMs / 1000).toFixed(2)}s`;
      log(`synced ${snapshot.size.toLocaleString('en-US')} ${plural()}${took} (${state.pages} page${state.pages === 1 ? '' : 's'}) at resourceVersion ${snapshot.resourceVersion}`);
      if (!table || !watch) return;
      const { columns, namespaceColumn } = watch;
      const rows = tableRows(snapshot, { columns, namespaceColumn, now: Date.now() });
      for (const line of renderTable({ headers: tableHeaders(columns, namespaceColumn), rows, width: Infinity })) log(line);
      for (const name of indexNames) log(formatIndexSummary(indexSummary(snapshot, name, 20)));
    },
    warning: (message) => void stderr.write(`${message}\n`),
    tick(snapshot) {
      if (!statusLines || !snapshot.synced) return;
      const now = `${state.counts.add}/${state.counts.update}/${state.counts.delete}/${state.phase.type}`;
      if (now === last) return;
      last = now;
      log(`${new Date().toISOString().slice(11, 19)} ${statusLine(state, snapshot, plural(), Date.now())}`);
    },
    close(summary) {
      if (!statusLines || !summary || !watch) return;
      log(statusLine(state, summary.snapshot, plural(), Date.now()));
      for (const name of indexNames) log(formatIndexSummary(indexSummary(summary.snapshot, name, 10)));
    },
  };
}
