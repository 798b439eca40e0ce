/** How a row is highlighted: a recent add, update or delete. */
export type RowMark = 'added' | 'updated' | 'deleted' | undefined;

/** One row of {@link renderTable}. */
export interface TableRow {
  readonly cells: readonly string[];
  readonly mark?: RowMark;
}

/** Options of {@link renderTable}. */
export interface RenderTableConfig {
  readonly headers: readonly string[];
  readonly rows: readonly TableRow[];
  /** Terminal width in columns; no line is longer. */
  readonly width: number;
  /** Colour marked rows with ANSI escapes (a live terminal). */
  readonly color?: boolean;
  /** Start every line with a two-character mark column: `+ ` added, `~ ` updated, `- ` deleted. */
  readonly markColumn?: boolean;
  /** Columns (by position) never cut to fit, such as NAME: the others give up room first. */
  readonly keep?: ReadonlySet<number>;
}

const gap = '   ';
const markColors: Record<Exclude<RowMark, undefined>, string> = { added: '\x1b[32m', updated: '\x1b[33m', deleted: '\x1b[31;9m' };
const markSigns: Record<Exclude<RowMark, undefined>, string> = { added: '+ ', updated: '~ ', deleted: '- ' };

/**
 * Lays out a kubectl-style table: upper-case headers, columns padded to their widest cell and
 * separated by three spaces. When the table is wider than `width`, the widest columns not in
 * `keep` give up room first and their cells end with `…`; no line exceeds `width` (a kept column
 * wider than the screen on its own is the only one cut, at the screen's edge). Marked rows (recent
 * changes) can be coloured and/or flagged in a leading mark column.
 *
 * ## Example
 * ```ts
 * renderTable({ headers: ['NAME', 'AGE'], rows: [{ cells: ['web-1', '5m'] }], width: 80 });
 * // → ['NAME    AGE', 'web-1   5m']
 * ```
 *
 * @param config headers, rows, width, colour.
 * @returns the lines, header first, without trailing spaces or newlines.
 */
export function renderTable(config: RenderTableConfig): string[] {
  const { headers, rows, color = false, markColumn = false, keep = new Set<number>() } = config;
  const width = config.width - (markColumn ? 2 : 0);
  const widths = headers.map((header, i) => rows.reduce((max, row) => Math.max(max, (row.cells[i] ?? '').length), header.length));
  const total = (): number => widths.reduce((sum, w) => sum + w, 0) + gap.length * Math.max(0, widths.length - 1);
  while (total() > width) {
    const shrinkable = widths.map((w, i) => (keep.has(i) ? 0 : w));
    const widest = shrinkable.indexOf(Math.max(...shrinkable));
    if (shrinkable[widest]! <= 4) break;
    widths[widest]!--;
  }
  const line = (cells: readonly string[]): string =>
    clip(widths.map((w, i) => fit(cells[i] ?? '', w, i === widths.length - 1)).join(gap).trimEnd(), width);
  const sign = (mark: RowMark): string => (markColumn ? (mark ? markSigns[mark] : '  ') : '');
  return [
    sign(undefined) + line(headers),
    ...rows.map((row) => {
      const text = sign(row.mark) + line(row.cells);
      return color && row.mark ? `${markColors[row.mark]}${text}\x1b[0m` : text;
    }),
  ];
}

function fit(cell: string, width: number, last: boolean): string {
  const clipped = cell.length > width ? `${cell.slice(0, Math.max(0, width - 1))}…` : cell;
  return last ? clipped : clipped.padEnd(width);
}

function clip(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
}
