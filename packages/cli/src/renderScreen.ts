import type { KubeObject, Snapshot } from 'rx-informer';
import type { Column } from './column.js';
import { formatIndexSummary, indexSummary } from './indexSummary.js';
import { noResourcesFound } from './noResourcesFound.js';
import { renderTable } from './renderTable.js';
import { progressLine, statusParts } from './statusText.js';
import { tableHeaders, tableRows } from './tableRows.js';
import type { WatchState } from './watchState.js';

/** What {@link renderScreen} draws besides the state and the snapshot. */
export interface ScreenConfig {
  /** Terminal size. */
  readonly width: number;
  readonly height: number;
  readonly now: number;
  /** First line, e.g. `rx-informer watch pods · all namespaces · kind-kind`. */
  readonly title: string;
  /** Extra lines under the title (the demo says what it runs). */
  readonly banner?: readonly string[];
  /** `pods`. */
  readonly plural: string;
  /** The one namespace watched (absent: all namespaces or a cluster-scoped resource), for kubectl's line about an empty list. */
  readonly namespace?: string;
  /** Every column of the table, NAMESPACE and NAME included. */
  readonly columns: readonly Column[];
  /** The `--index` names. */
  readonly indexNames: readonly string[];
  /** ANSI colours (default true). */
  readonly color?: boolean;
}

const bold = (s: string): string => `\x1b[1m${s}\x1b[0m`;
const dim = (s: string): string => `\x1b[2m${s}\x1b[0m`;
const paint = (code: string, s: string): string => `\x1b[${code}m${s}\x1b[0m`;

/**
 * One frame of the live view, exactly `height` lines (or fewer) of at most `width` visible
 * characters: title, watch state, events, sync progress or last error, index summaries, then the table of the
 * most recently changed objects, and a footer.
 *
 * @param state the watch state.
 * @param snapshot the cache.
 * @param config size, time, labels, columns.
 * @returns the lines, with ANSI colour escapes when `color`.
 */
export function renderScreen(state: WatchState, snapshot: Snapshot<KubeObject>, config: ScreenConfig): string[] {
  const { width, height, now, color = true } = config;
  const c = color ? { bold, dim, paint } : { bold: id, dim: id, paint: (_: string, s: string) => s };
  const fitTo = (s: string, w: number): string => (s.length > w ? `${s.slice(0, Math.max(0, w - 1))}…` : s);
  const fit = (s: string): string => fitTo(s, width);
  const clock = new Date(now).toISOString().slice(11, 19);
  const title = fit(config.title).slice(0, Math.max(0, width - clock.length - 1));
  const lines = [c.bold(title) + ' '.repeat(Math.max(1, width - title.length - clock.length)) + c.dim(clock)];
  for (const line of config.banner ?? []) lines.push(c.dim(fit(line)));

  const phase = state.phase.type;
  const dot = phase === 'watching' ? c.paint('32', '●') : phase === 'unreachable' || phase === 'backingOff' ? c.paint('31', '●') : c.paint('33', '●');
  const status = statusParts(state, snapshot, config.plural, now);
  lines.push(`${dot} ${fitTo(status.state, width - 2)}`, `  ${fitTo(status.events, width - 2)}`);
  const waiting = phase === 'resolving' || phase === 'unreachable';
  // The bar belongs to the first list only: once synced, a relist says its progress in the state line.
  if (!snapshot.synced && !waiting) lines.push(c.paint('36', fit(progressLine(state.list, now, Math.min(30, Math.max(10, width - 70))))));
  else if (state.lastError && now - state.lastError.at < 30_000) lines.push(c.paint('31', fit(`last error ${Math.round((now - state.lastError.at) / 1000)}s ago: ${state.lastError.message}`)));
  else lines.push('');
  for (const name of config.indexNames) lines.push(fit(formatIndexSummary(indexSummary(snapshot, name, 40), width)));
  lines.push('');

  const room = height - lines.length - 2; // header + footer
  if (room < 1 || waiting) return lines.slice(0, height);
  const rows = tableRows(snapshot, { columns: config.columns, now, limit: room, recent: state.recent });
  const keep = new Set(config.columns.flatMap((column, i) => (column.keep ? [i] : [])));
  const table = renderTable({ headers: tableHeaders(config.columns), rows, width, color, markColumn: true, keep });
  lines.push(c.bold(table[0]!), ...table.slice(1));
  // Rows of objects just deleted stay a while, marked, but are no longer in the cache: not counted.
  const cached = rows.filter((row) => row.mark !== 'deleted').length;
  const footer = snapshot.size === 0 && rows.length === 0
    ? (snapshot.synced ? noResourcesFound(config.namespace) : '')
    : `${cached.toLocaleString('en-US')} of ${snapshot.size.toLocaleString('en-US')} shown · newest changes first · Ctrl-C to quit`;
  lines.push(c.dim(fit(footer)));
  return lines;
}

function id(s: string): string {
  return s;
}
