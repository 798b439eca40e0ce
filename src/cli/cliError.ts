/**
 * A failure the CLI reports as one line on stderr before it exits with {@link CliError.exitCode}:
 * 2 for a usage mistake, 1 for anything else it cannot go on from.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  /** The process exit code to use. */
  readonly exitCode: number;

  constructor(message: string, options?: { exitCode?: number; cause?: unknown }) {
    super(`[informer] ${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options?.exitCode ?? 1;
  }
}
