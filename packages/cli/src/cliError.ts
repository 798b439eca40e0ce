/**
 * A failure the CLI reports on stderr, worded as kubectl words it (`error: …`, `Error from server
 * (BadRequest): …`), before it exits with {@link CliError.exitCode}: 2 for a usage mistake, 1 for
 * anything else it cannot go on from. The message is the text printed, without the final newline.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  /** The process exit code to use. */
  readonly exitCode: number;

  constructor(message: string, options?: { exitCode?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options?.exitCode ?? 1;
  }
}

/** `error: <message>`, exit 1: the command cannot go on. */
export function cliFailure(message: string, cause?: unknown): CliError {
  return new CliError(`error: ${message}`, cause === undefined ? undefined : { cause });
}

/**
 * `error: <message>` and the pointer to the command's help, exit 2: the command line is wrong.
 *
 * @param message what is wrong.
 * @param command the command whose `--help` to point at (none: the program's).
 */
export function usageError(message: string, command?: string): CliError {
  return new CliError(`error: ${message}\nSee 'rx-informer${command ? ` ${command}` : ''} --help' for usage.`, { exitCode: 2 });
}
