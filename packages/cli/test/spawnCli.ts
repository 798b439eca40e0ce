import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cliBundle } from './cliBundle.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** The CLI's `bin.js`, bundled from the current sources (cliBundle.ts). */
export const cliBin = await cliBundle();

/** A running `rx-informer` (the bundle of packages/cli/src, {@link cliBin}), or another command, with its output collected. */
export interface CliRun {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once `pattern` matches the stream's output so far; rejects after `timeoutMs` naming what was seen. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or the signal name) once the process has ended and its output is read to the end. */
  readonly exit: Promise<number | string>;
  kill(signal?: NodeJS.Signals): void;
}

/** Spawns the CLI with `args`, from the repository root, with `env` added to (or, for `undefined` values, removed from) the environment. */
export function spawnCli(args: readonly string[], env: Record<string, string | undefined> = {}): CliRun {
  return spawnCommand(process.execPath, [cliBin, ...args], env);
}

/** Spawns `file` with `args` on pipes, from the repository root, with `env` changed as {@link spawnCli} does. */
export function spawnCommand(file: string, args: readonly string[], env: Record<string, string | undefined> = {}): CliRun {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete fullEnv[name];
  const child = spawn(file, [...args], { cwd: root, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const text = { stdout: '', stderr: '' };
  const waiters = new Set<() => void>();
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]!.setEncoding('utf8');
    child[stream]!.on('data', (chunk: string) => {
      text[stream] += chunk;
      for (const check of waiters) check();
    });
  }
  // 'close', not 'exit': the process can end before this one has read what it wrote to the pipes.
  const exit = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? -1)));
  let exited = false;
  void exit.then(() => {
    exited = true;
    for (const check of waiters) check();
  });
  return {
    child,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    exit,
    kill: (signal = 'SIGTERM') => void (exited || child.kill(signal)),
    waitFor(stream, pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(text[stream]);
          if (match) done(() => resolve(match));
          else if (exited) done(() => reject(new Error(`exited before ${pattern} on ${stream}; stdout:\n${text.stdout}\nstderr:\n${text.stderr}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`no ${pattern} on ${stream} within ${timeoutMs} ms; stdout:\n${text.stdout.slice(-3000)}\nstderr:\n${text.stderr.slice(-3000)}`))), timeoutMs);
        const done = (settle: () => void): void => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
  };
}
