/**
 * `npm run bench:cli`: how long `rx-informer watch pods -A` takes to its first screen, against
 * `kubectl get pods -A -w` on the same server in the same run (issue 13, item 6: target ≤ 3×).
 *
 * The test API server runs in this process, seeded with BENCH_PODS pods (default 1,000) by the
 * demo's seeding. Each round starts both clients once, in turn (rx-informer first in odd rounds,
 * kubectl first in even ones), from a fresh process, and times from the spawn to:
 * - on a pipe, the header and the first rows on stdout;
 * - on a terminal (util-linux `script`), rx-informer's first frame, and the first frame (for
 *   kubectl: the first output) that shows rows.
 * A round's ratio is rx-informer's time over kubectl's in that round; the medians of the times and
 * of the ratios are printed. One warm-up round is not counted (it also fills Node's compile cache,
 * as any earlier run on the machine would have). rx-informer is the CLI package's bundle
 * (packages/cli/dist/bin.js, what `npm install rx-informer-cli` puts on the PATH; `npm run bench:cli`
 * builds it first); `BENCH_CLI=src` times `tsx packages/cli/src/main.ts` instead.
 *
 * Each ratio is given as the median and the spread (min–max over the rounds); the samples go to
 * bench/results/cli-<time>.json. `taskset -c 0 npm run bench:cli` runs it pinned to one CPU.
 *
 * Environment: BENCH_PODS, BENCH_ROUNDS (default 7), KUBECTL (default: kubectl on the PATH),
 * BENCH_BIN (another build of the CLI to time instead of packages/cli/dist/bin.js).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoCluster } from '../../packages/cli/src/demoCluster.js';
import { createTestApiServer } from 'rx-informer/test-server';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pods = Number(process.env['BENCH_PODS'] ?? 1000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 7);
const kubectlBinary = process.env['KUBECTL'] ?? 'kubectl';
const fromSource = process.env['BENCH_CLI'] === 'src';

const server = await createTestApiServer({ changeLogSize: 10_000 });
demoCluster(server, { pods });
const dir = mkdtempSync(join(tmpdir(), 'rx-informer-bench-cli-'));
const kubeconfig = join(dir, 'kubeconfig');
await server.writeKubeConfig(kubeconfig);

const node = process.execPath;
const bin = process.env['BENCH_BIN'] ?? 'packages/cli/dist/bin.js';
const rxArgs = [...(fromSource ? ['--import=tsx', 'packages/cli/src/main.ts'] : [bin]), 'watch', 'pods', '-A', '--kubeconfig', kubeconfig];
const kubectlArgs = ['get', 'pods', '-A', '-w', '--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'kubectl-cache')];
const env = { ...process.env, HOME: dir };

/** The header and at least two rows of a table (kubectl's or rx-informer's, marks and escapes aside). */
const rows = (text: string): boolean => /NAMESPACE +NAME +[^\n]*\n(?:[^\n]*\S[^\n]*\n){2}/.test(text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, ''));

/** Starts `file args`, resolves with the ms from the spawn to each mark's first match in its output, then kills it. */
function time(file: string, args: readonly string[], marks: Record<string, (output: string) => boolean>): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { cwd: root, env, stdio: ['pipe', 'pipe', 'ignore'] });
    const seen: Record<string, number> = {};
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} ${args.join(' ')}: no ${Object.keys(marks).filter((m) => !(m in seen)).join(', ')} within 30 s:\n${output.slice(-1000)}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const now = performance.now();
      for (const [mark, test] of Object.entries(marks)) if (!(mark in seen) && test(output)) seen[mark] = now - started;
      if (Object.keys(seen).length === Object.keys(marks).length) {
        clearTimeout(timer);
        child.kill('SIGKILL');
        resolve(seen);
      }
    });
    child.on('error', reject);
  });
}

/** `file args` on a 120×40 pseudo-terminal. */
function onTerminal(file: string, args: readonly string[]): [string, string[]] {
  const quoted = [file, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  return ['script', ['-qfec', `stty cols 120 rows 40; exec ${quoted}`, '/dev/null']];
}

type Times = Record<string, number>;
type Sample = { rx: Times; kubectl: Times };

/** Both clients on a pipe, then both on a terminal; `rxFirst` says who starts each pair. */
async function round(rxFirst: boolean): Promise<{ pipe: Sample; tty: Sample }> {
  const pair = async (rx: () => Promise<Times>, kubectl: () => Promise<Times>): Promise<Sample> => {
    if (rxFirst) {
      const a = await rx();
      return { rx: a, kubectl: await kubectl() };
    }
    const b = await kubectl();
    return { rx: await rx(), kubectl: b };
  };
  const pipe = await pair(() => time(node, rxArgs, { rows }), () => time(kubectlBinary, kubectlArgs, { rows }));
  // The live view's first frame: the first redraw from the home position after taking the screen.
  const tty = await pair(() => time(...onTerminal(node, rxArgs), { frame: (o) => o.split('\x1b[H').length > 2, rows }), () => time(...onTerminal(kubectlBinary, kubectlArgs), { rows }));
  return { pipe, tty };
}

/** The CPUs this process may run on (`taskset -c 0 npm run bench:cli` pins the server and both clients to one). */
function pinning(): string {
  const status = readFileSync('/proc/self/status', 'utf8');
  return /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1] ?? 'unknown';
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

try {
  await round(true); // warm-up: caches (kubectl's discovery, Node's compile cache, the page cache)
  const samples: Array<{ pipe: Sample; tty: Sample }> = [];
  // Who goes first alternates, so a drift in the machine's speed hits both alike.
  for (let i = 0; i < rounds; i++) samples.push(await round(i % 2 === 0));
  const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;
  const line = (label: string, pick: (s: { pipe: Sample; tty: Sample }) => [number, number | undefined]): string => {
    const rx = median(samples.map((s) => pick(s)[0]));
    const kubectl = samples.map((s) => pick(s)[1]);
    if (kubectl[0] === undefined) return `${label.padEnd(26)}${ms(rx).padStart(12)}${'—'.padStart(12)}`;
    const ratios = samples.map((s) => pick(s)[0] / pick(s)[1]!);
    const spread = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×`;
    return `${label.padEnd(26)}${ms(rx).padStart(12)}${ms(median(kubectl as number[])).padStart(12)}${`${median(ratios).toFixed(2)}×`.padStart(10)}${spread.padStart(16)}`;
  };
  const pinned = pinning();
  const lines = [
    `rx-informer watch pods -A (${fromSource ? 'tsx packages/cli/src/main.ts' : bin}) vs kubectl get pods -A -w · ${pods.toLocaleString('en-US')} pods · ${rounds} rounds · cpus ${pinned} · load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    `${''.padEnd(26)}${'rx-informer'.padStart(12)}${'kubectl'.padStart(12)}${'ratio'.padStart(10)}${'min–max'.padStart(16)}`,
    line('pipe: first rows', (s) => [s.pipe.rx['rows']!, s.pipe.kubectl['rows']!]),
    line('terminal: first frame', (s) => [s.tty.rx['frame']!, undefined]),
    line('terminal: first rows', (s) => [s.tty.rx['rows']!, s.tty.kubectl['rows']!]),
  ];
  for (const text of lines) console.log(text);
  // The samples and the table, for the record (bench/results/ is not committed).
  const file = join(root, 'bench/results', `cli-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ pods, rounds, bin: fromSource ? 'src' : bin, cpus: pinned, loadavg: loadavg(), samples, table: lines }, null, 2));
  console.log(`samples: ${relative(root, file)}`);
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
