/** A watch stream carried a line that is not a JSON watch event. The source reports it and relists. */
export class MalformedWatchLineError extends Error {
  override readonly name = 'MalformedWatchLineError';
  /** The start of the offending line (at most 200 characters). */
  readonly line: string;
  constructor(line: string, options?: { cause?: unknown }) {
    const head = line.length > 200 ? `${line.slice(0, 197)}...` : line;
    super(`[informer] malformed watch event: ${JSON.stringify(head)}`, options);
    this.line = head;
  }
}
