/**
 * What both benchmark drivers (bench/loopback/run.ts on loopback, bench/cluster/run.ts against a real
 * apiserver) share: how a contender is started, the JSON-lines conversation with it, building the
 * client-go contender, logging.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const goBinary = join(root, '.bench-build', 'client-go-bench');
const profileDir = join(root, '.scratch', 'profiles');

/** One contender: how to start it for a kubeconfig; `tag` names its profile files. */
export interface Contender {
  readonly id: string;
  readonly label: string;
  readonly optIn?: boolean;
  /** Extra environment (e.g. client-go feature gates). */
  readonly env?: Readonly<Record<string, string>>;
  command(kubeconfig: string, tag: string): [string, string[]];
}

/**
 * A Node contender: `bench/contenders/<file>` under tsx, with --expose-gc (and --cpu-prof when
 * profiling), and BENCH_NODE_FLAGS (space-separated) for flags Node refuses in NODE_OPTIONS, such as
 * `--trace-gc` (its lines reach the driver's log under the contender's name).
 */
export const nodeContender = (profile: boolean, id: string, label: string, file: string, ...args: string[]): Contender => ({
  id,
  label,
  command: (_kubeconfig, tag) => [
    process.execPath,
    [
      '--expose-gc',
      ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      '--import=tsx',
      ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${tag}.cpuprofile`] : []),
      join(root, 'bench', 'contenders', file),
      ...args,
    ],
  ],
});

/** The client-go contender (bench/contenders/client-go) with `args`, and a pprof profile when profiling. */
export const goContender = (profile: boolean, id: string, label: string, args: readonly string[] = [], env?: Record<string, string>): Contender => ({
  id,
  label,
  ...(env ? { env } : {}),
  command: (kubeconfig, tag) => [goBinary, [`-kubeconfig=${kubeconfig}`, ...args, ...(profile ? [`-cpuprofile=${join(profileDir, `${tag}.pprof`)}`] : [])]],
});

export const log = (line: string): void => void process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

/** Builds bench/contenders/client-go into .bench-build; returns `go version`. */
export const buildClientGo = (): string => buildGoContender('contenders/client-go', goBinary);

/** Builds the Go module bench/`dir` into `binary` (under .bench-build, ignored); returns `go version`. */
export function buildGoContender(dir: string, binary: string): string {
  log(`building bench/${dir} (go build; downloads modules on the first run)`);
  const go = existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : 'go';
  execFileSync(go, ['build', '-o', binary, '.'], { cwd: join(root, 'bench', dir), stdio: ['ignore', 'inherit', 'inherit'] });
  return execFileSync(go, ['version'], { encoding: 'utf8' }).trim();
}

/** A child speaking JSON lines: `next(type)` resolves with the next message of that type. */
export function lines(child: ChildProcess, name: string) {
  const waiting = new Map<string, { resolve: (m: never) => void; reject: (e: Error) => void }>();
  const queued: Record<string, unknown>[] = [];
  let failure: Error | undefined;
  const fail = (error: Error): void => {
    failure ??= error;
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line);
    } catch {
      return void log(`${name}: ${line}`);
    }
    const waiter = waiting.get(message.type as string);
    if (waiter) {
      waiting.delete(message.type as string);
      waiter.resolve(message as never);
    } else queued.push(message);
  });
  child.on('exit', (code, signal) => fail(new Error(`${name} exited (${code ?? signal})`)));
  child.on('error', fail);
  return {
    next<M>(type: string, timeoutMs: number): Promise<M> {
      const i = queued.findIndex((m) => m.type === type);
      if (i >= 0) return Promise.resolve(queued.splice(i, 1)[0] as M);
      if (failure) return Promise.reject(failure);
      return new Promise<M>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(type);
          reject(new Error(`${name}: no "${type}" within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(type, {
          resolve: (m) => (clearTimeout(timer), resolve(m)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
      });
    },
  };
}

/** Sends one JSON-lines command to a contender. */
export const tell = (child: ChildProcess, message: object): void => void child.stdin!.write(`${JSON.stringify(message)}\n`);

/** Resolves when `child` has exited (or was killed by a signal). */
export const exited = (child: ChildProcess): Promise<unknown> => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));

/** p-th percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The machine a run is on, as the reports print it (`go` is filled in once client-go is built). */
export function machineInfo(): { cpus: string; memory: string; node: string; go: string; loadavgAtStart: string } {
  return {
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    go: '',
    loadavgAtStart: loadavg().map((l) => l.toFixed(2)).join(' '),
  };
}
