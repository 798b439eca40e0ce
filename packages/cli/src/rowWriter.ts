/** Options of {@link createRowWriter}. */
export interface RowWriterConfig {
  /** The header line's cells; printed before the first row. */
  readonly headers: readonly string[];
  /** Leave the header out (`--no-headers`). */
  readonly noHeaders?: boolean;
  /** Widths columns start at (by position), for a column whose widest value is known up front. */
  readonly minWidths?: readonly number[];
}

/** Lays out the rows of a table that is printed bit by bit, as `kubectl get -w` does on a pipe. */
export interface RowWriter {
  /**
   * The lines for `rows` (the header first, the first time), each cell padded to its column's width
   * and three spaces apart, the last column unpadded. A column is as wide as the widest cell it has
   * had so far, header and earlier rows included: it never narrows, so rows printed one at a time
   * stay aligned, and a wider cell widens it from its own line on.
   */
  lines(rows: readonly (readonly string[])[]): string[];
}

/**
 * Creates a {@link RowWriter}: kubectl's watch layout (its tabwriter remembers column widths
 * between flushes), for a pipe, where nothing is cut.
 *
 * ## Example
 * ```ts
 * const writer = createRowWriter({ headers: ['NAME', 'AGE'] });
 * writer.lines([['web', '5s']]); // → ['NAME   AGE', 'web    5s']
 * writer.lines([['a-longer-name', '0s']]); // → ['a-longer-name   0s']
 * ```
 *
 * @param config the header and whether to print it.
 */
export function createRowWriter(config: RowWriterConfig): RowWriter {
  const widths = config.headers.map((header, i) => Math.max(header.length, config.minWidths?.[i] ?? 0));
  let headerDue = config.noHeaders !== true;
  return {
    lines(rows) {
      const batch = headerDue ? [config.headers, ...rows] : rows;
      headerDue = false;
      for (const cells of batch) cells.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
      return batch.map((cells) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('   ').trimEnd());
    },
  };
}
