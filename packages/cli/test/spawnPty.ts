import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cliBin } from './spawnCli.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The CLI running on a pseudo-terminal, with everything it wrote to it. */
export interface PtyRun {
  /** The raw bytes written to the terminal so far (escapes included). */
  output(): string;
  /**
   * The frames of the live view so far, as plain text lines (escapes removed): what was drawn from
   * the home position each time, up to leaving the alternate screen.
   */
  frames(): string[][];
  /** Resolves once `check` holds for the output; rejects after `timeoutMs` with the tail of what was seen. */
  waitFor(check: (run: PtyRun) => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Types into the terminal (`'\x03'` is Ctrl-C). */
  type(text: string): void;
  /** The exit code of the CLI (through util-linux `script`). */
  readonly exit: Promise<number | null>;
  kill(): void;
}

/** Whether util-linux `script` is there to make the pseudo-terminal (Debian's bsdutils is essential). */
export const hasScript = spawnSync('script', ['--version']).status === 0;

/** Escapes (colours, cursor moves) and carriage returns removed. */
export const plain = (text: string): string => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');

/**
 * Runs `rx-informer <args>` on a `cols`×`rows` pseudo-terminal made by util-linux `script`, with
 * `env` added to the environment (or, for `undefined` values, removed from it).
 */
export function spawnPty(args: readonly string[], options: { readonly cols: number; readonly rows: number; readonly env?: Record<string, string | undefined> }): PtyRun {
  const quoted = args.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  const command = `stty cols ${options.cols} rows ${options.rows}; exec node_modules/.bin/node '${cliBin}' ${quoted}`;
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  for (const [name, value] of Object.entries(options.env ?? {})) if (value === undefined) delete env[name];
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const check of waiters) check();
  });
  let exited = false;
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code))); // once its output is read to the end
  void exit.then(() => {
    exited = true;
    for (const check of waiters) check();
  });
  const run: PtyRun = {
    output: () => out,
    // After the initial clear, one frame per `ESC[H`, up to leaving the alternate screen. A frame
    // ends with `ESC[J` (clear the rest of the screen); one that does not has only partly arrived
    // (the pseudo-terminal delivers a write in several chunks) and is left out.
    frames: () => out.split('\x1b[?25h\x1b[?1049l')[0]!.split('\x1b[H').slice(2)
      .filter((frame) => frame.endsWith('\x1b[J'))
      .map((frame) => plain(frame).split('\n')),
    waitFor(check, what, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const done = (settle: () => void): void => {
          clearTimeout(timer);
          waiters.delete(test);
          settle();
        };
        const test = (): void => {
          if (check(run)) done(resolve);
          else if (exited) done(() => reject(new Error(`exited before ${what}:\n${plain(out).slice(-3000)}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`no ${what} within ${timeoutMs} ms:\n${plain(out).slice(-3000)}`))), timeoutMs);
        waiters.add(test);
        test();
      });
    },
    type: (text) => void child.stdin.write(text),
    exit,
    kill: () => void (exited || child.kill('SIGKILL')),
  };
  return run;
}
