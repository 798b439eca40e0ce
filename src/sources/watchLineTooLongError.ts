/** A watch event line grew beyond `maxLineBytes` without a newline. The source drops the stream and relists. */
export class WatchLineTooLongError extends Error {
  override readonly name = 'WatchLineTooLongError';
  readonly maxLineBytes: number;
  constructor(maxLineBytes: number) {
    super(`[informer] watch event line exceeds ${maxLineBytes} bytes`);
    this.maxLineBytes = maxLineBytes;
  }
}
