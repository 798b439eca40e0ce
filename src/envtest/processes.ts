import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:net';
import { EnvtestError } from './envtestError.js';

/** One started program: its PID, its log file, and a promise of its exit. @internal */
export interface RunningProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves with the exit code (or the signal's name) when it has exited. */
  readonly exited: Promise<number | string>;
  /** True once it has exited. */
  hasExited(): boolean;
  readonly child: ChildProcess;
}

/** `count` distinct free ports on 127.0.0.1, held open together so the kernel does not hand one out twice. @internal */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      ports.push(
        await new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
        }),
      );
    }
    return ports;
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/**
 * Starts `binary` in its own process group (so that a Ctrl-C to the test's terminal does not reach
 * it half-way; the watchdog and `stop()` end it), output appended to `logFile`. Unreferenced: a
 * test process that forgets `stop()` still exits, and the watchdog cleans up. @internal
 */
export function startProcess(name: string, binary: string, args: readonly string[], logFile: string): RunningProcess {
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(binary, args, { detached: true, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  let done = false;
  const exited = new Promise<number | string>((resolve) => {
    child.once('error', (error) => {
      done = true;
      resolve(String((error as NodeJS.ErrnoException).code ?? error.message));
    });
    child.once('exit', (code, signal) => {
      done = true;
      resolve(code ?? signal ?? 'unknown');
    });
  });
  child.unref();
  return { name, pid: child.pid ?? -1, logFile, exited, hasExited: () => done, child };
}

/** The last `lines` lines of a log file ('' when there is none). @internal */
export function logTail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Sends `signal` to the process group of `running` (and to itself). @internal */
export function signal(running: RunningProcess, sig: NodeJS.Signals): void {
  if (running.hasExited() || running.pid <= 0) return;
  try {
    process.kill(-running.pid, sig);
  } catch {
    try {
      process.kill(running.pid, sig);
    } catch {
      // already gone
    }
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. @internal */
export async function stopProcess(running: RunningProcess, graceMs: number): Promise<void> {
  if (running.hasExited()) return;
  // Referenced again while we wait, or a script whose last step is `await stop()` would end with
  // the wait unsettled (nothing else keeps its event loop alive).
  running.child.ref();
  signal(running, graceMs === 0 ? 'SIGKILL' : 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  const outcome = await Promise.race([running.exited, late]);
  clearTimeout(timer);
  if (outcome === 'late') {
    signal(running, 'SIGKILL');
    await running.exited;
  }
}

/** TLS material for a request to the apiserver (or none, for etcd's plain HTTP). @internal */
export interface Tls {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly rejectUnauthorized?: boolean;
}

/** One GET; resolves with the status code and body, rejects on a connection error or after `timeoutMs`. @internal */
export function get(url: string, tls: Tls | undefined, timeoutMs = 2000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, { method: 'GET', agent: false, timeout: timeoutMs, ...(tls ?? {}) }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on('error', reject);
    request.end();
  });
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `url` every 50 ms until it answers 200, `running` (or one of `alsoWatched`) exits (→ `'start-failed'` with its log's
 * last lines) or `timeoutMs` passes. @internal
 */
export async function waitUntilOk(running: RunningProcess, url: string, tls: Tls | undefined, timeoutMs: number, alsoWatched: readonly RunningProcess[] = []): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const gone = [running, ...alsoWatched].find((p) => p.hasExited());
    if (gone) throw new EnvtestError('start-failed', `${gone.name} exited during start-up (${String(await gone.exited)}); last lines of ${gone.logFile}:\n${logTail(gone.logFile)}`);
    try {
      const { status, body } = await get(url, tls, 2000);
      if (status === 200) return;
      last = `${status} ${body.slice(0, 2000)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() >= deadline) throw new EnvtestError('start-failed', `${running.name}: ${url} not ready after ${timeoutMs} ms (last answer: ${last}); last lines of ${running.logFile}:\n${logTail(running.logFile)}`);
    await pause(50);
  }
}
