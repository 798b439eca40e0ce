/**
 * `node --import=tsx bench/probes/readPath.ts`: how the watch body is read, and nothing else, over
 * loopback. One server process writes M MODIFIED lines (the loopback benchmark's objects, one HTTP
 * chunk per event, as the apiserver flushes them) back-to-back onto one chunked response; each
 * reader is a fresh process that first holds a cache of N parsed objects (so the garbage collector
 * has the old generation a real informer has), then reads the body, splits it into lines,
 * `JSON.parse`s each and `Map.set`s the object by namespace/name. Readers:
 *
 * - **http-data**: `node:http`, `'data'` events into rx-informer's line reader (the library's
 *   read path today, compiled: dist/sources/http/lineReader.js).
 * - **http-joined**: the same, the chunks of one socket read handed over together (a `'readable'`
 *   handler that drains `read()` into one line-reader push per chunk, the same work per line).
 * - **http-string**: `node:http` with `setEncoding('utf8')` (one decode per chunk; lines cut out of the string).
 * - **fetch-reader**: undici's `fetch` (the package client-node depends on), `body.getReader()`, chunks into the same line reader.
 * - **fetch-readline**: the body as client-node reads it (`fetch`, `Readable.fromWeb`, `readline`).
 *
 * Each reader prints wall ms from the first byte to the last line, the process's CPU ms over that
 * span, and its GC pauses (PerformanceObserver 'gc': count and ms, major and minor). Rounds rotate
 * the readers' order; medians, min and max are printed and written to bench/results/readPath-<time>.json.
 * BENCH_N (100,000), BENCH_EVENTS (50,000), BENCH_ROUNDS (5), BENCH_READERS (comma list),
 * BENCH_PIN=1 (server on CPU 0, reader on CPU 1).
 */
import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, request, Agent, type IncomingMessage } from 'node:http';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stampedJson } from '../core/workload.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const N = Number(process.env.BENCH_N ?? 100_000);
const M = Number(process.env.BENCH_EVENTS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const READERS = (process.env.BENCH_READERS ?? 'http-data,http-joined,http-string,fetch-reader,fetch-readline').split(',');
const role = process.argv[2] ?? 'main';

type Item = { metadata: { namespace: string; name: string } };
interface Result {
  readonly reader: string;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly gcMajor: number;
  readonly gcMajorMs: number;
  readonly gcMinor: number;
  readonly gcMinorMs: number;
  readonly chunks: number;
}

if (role === 'server') await serve();
else if (role === 'reader') await read(process.argv[3]!, process.argv[4]!);
else await main();

/** Writes M lines per GET, one `write` (one HTTP chunk) each, yielding every 250 as the loopback loader does. */
async function serve(): Promise<void> {
  const lines = Array.from({ length: 2_000 }, (_, k) => `{"type":"MODIFIED","object":${stampedJson(k * 37 % N, 2 + k, k)}}\n`);
  const server = createServer(async (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.flushHeaders();
    await new Promise((r) => setTimeout(r, 200)); // the reader settles after its headers
    for (let done = 0; done < M; ) {
      const end = Math.min(M, done + 250);
      let ok = true;
      for (; done < end; done++) ok = res.write(lines[done % lines.length]!);
      if (!ok) await new Promise((r) => res.once('drain', r));
      else await new Promise((r) => setImmediate(r));
    }
    res.end();
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
}

async function read(reader: string, url: string): Promise<void> {
  // A cache of N objects, as a synced informer holds.
  const cache = new Map<string, Item>();
  for (let i = 0; i < N; i++) {
    const item = JSON.parse(stampedJson(i, 1)) as Item;
    cache.set(`${item.metadata.namespace}/${item.metadata.name}`, item);
  }
  const { createLineReader } = (await import(pathToFileURL(join(root, 'dist', 'sources', 'http', 'lineReader.js')).href)) as typeof import('../../src/sources/http/lineReader.js');
  const gc = { major: 0, majorMs: 0, minor: 0, minorMs: 0 };
  let measuring = false;
  new PerformanceObserver((list) => {
    if (!measuring) return;
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      // NODE_PERFORMANCE_GC_MAJOR = 4, MINOR = 1 (scavenge), INCREMENTAL = 8, WEAKCB = 16
      if (kind === 1) (gc.minor++, (gc.minorMs += entry.duration));
      else (gc.major++, (gc.majorMs += entry.duration));
    }
  }).observe({ entryTypes: ['gc'] });
  let lines = 0;
  let chunks = 0;
  let t0 = 0;
  let c0 = 0;
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const first = (): void => {
    if (t0 === 0) {
      t0 = performance.now();
      c0 = cpu();
      measuring = true;
    }
  };
  const onLine = (line: string): void => {
    const event = JSON.parse(line) as { type: string; object: Item };
    cache.set(`${event.object.metadata.namespace}/${event.object.metadata.name}`, event.object);
    lines++;
  };
  const done = new Promise<void>((resolve) => {
    const finish = (): void => resolve();
    if (reader.startsWith('http-')) {
      request(url, { agent: new Agent({ keepAlive: true }) }, (res: IncomingMessage) => {
        const lineReader = createLineReader(16 * 1024 * 1024, onLine);
        if (reader === 'http-data') {
          res.on('data', (chunk: Buffer) => {
            first();
            chunks++;
            lineReader.push(chunk);
          });
        } else if (reader === 'http-joined') {
          res.on('readable', () => {
            first();
            const parts: Buffer[] = [];
            let chunk: Buffer | null;
            while ((chunk = res.read() as Buffer | null) !== null) parts.push(chunk);
            if (parts.length === 0) return;
            chunks++;
            lineReader.push(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
          });
        } else {
          res.setEncoding('utf8');
          let rest = '';
          res.on('data', (text: string) => {
            first();
            chunks++;
            let from = 0;
            let eol = text.indexOf('\n');
            if (rest !== '' && eol !== -1) {
              onLine(rest + text.slice(0, eol));
              rest = '';
              from = eol + 1;
              eol = text.indexOf('\n', from);
            }
            for (; eol !== -1; eol = text.indexOf('\n', from)) {
              onLine(text.slice(from, eol));
              from = eol + 1;
            }
            if (from < text.length) rest += text.slice(from);
          });
        }
        res.on('end', finish);
      }).end();
    } else {
      // client-node's fetch: the undici package it depends on (not the copy bundled in Node).
      void import('undici').then(({ fetch }) => fetch(url)).then(async (response) => {
        if (reader === 'fetch-reader') {
          const lineReader = createLineReader(16 * 1024 * 1024, onLine);
          const body = (response.body as unknown as ReadableStream<Uint8Array>).getReader();
          for (;;) {
            const { done: end, value } = await body.read();
            if (end) break;
            first();
            chunks++;
            lineReader.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
          }
          finish();
        } else {
          const text = createInterface(Readable.fromWeb(response.body! as NodeReadableStream<Uint8Array>));
          text.on('line', (line) => {
            first();
            onLine(line);
          });
          text.on('close', finish);
        }
      });
    }
  });
  await done;
  const wallMs = performance.now() - t0;
  const cpuMs = cpu() - c0;
  measuring = false;
  await new Promise((r) => setTimeout(r, 50)); // the last gc entries
  if (lines !== M) throw new Error(`${reader}: read ${lines} of ${M} lines`);
  const result: Result = { reader, wallMs, cpuMs, gcMajor: gc.major, gcMajorMs: gc.majorMs, gcMinor: gc.minor, gcMinorMs: gc.minorMs, chunks };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  if (cache.size < N) throw new Error('cache shrank');
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
  const pin = process.env.BENCH_PIN === '1';
  const self = fileURLToPath(import.meta.url);
  const server = fork(self, ['server'], { execArgv: ['--import=tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => server.once('message', (m: { port: number }) => resolve(m.port)));
  if (pin) execFileSync('taskset', ['-a', '-cp', '0', String(server.pid)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/watch`;
  const load = [loadavg()[0]!];
  const results: Result[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = READERS.map((_, k) => READERS[(k + round) % READERS.length]!);
    for (const reader of order) {
      const args = ['--import=tsx', self, 'reader', reader, url];
      const child = pin ? spawn('taskset', ['-c', '1', process.execPath, ...args]) : spawn(process.execPath, args);
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.pipe(process.stderr);
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      if (code !== 0) throw new Error(`${reader} exited ${code}`);
      const result = JSON.parse(out.trim()) as Result;
      results.push(result);
      process.stderr.write(`round ${round + 1} ${reader}: ${((M / result.wallMs) * 1000).toFixed(0)} events/s, CPU ${((result.cpuMs / M) * 1000).toFixed(2)} µs/event, major GC ${result.gcMajor} (${result.gcMajorMs.toFixed(0)} ms), chunks ${result.chunks}\n`);
      load.push(loadavg()[0]!);
    }
  }
  server.kill();
  const stats = (v: number[]): [number, number, number] => {
    const s = [...v].sort((a, b) => a - b);
    return [s[0]!, s[s.length >> 1]!, s[s.length - 1]!];
  };
  const fmt = ([a, b, c]: [number, number, number], digits = 0): string => `${a.toFixed(digits)} – **${b.toFixed(digits)}** – ${c.toFixed(digits)}`;
  const base = stats(results.filter((r) => r.reader === READERS[0]).map((r) => M / r.wallMs * 1000))[1];
  const lines = [
    `N = ${N} cached, M = ${M} events, ${ROUNDS} rounds, ${pin ? 'pinned (server CPU 0, reader CPU 1)' : 'unpinned'}, load ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}; min – **median** – max`,
    '',
    `| reader | events/s | CPU µs/event | major GC count / ms | scavenges | chunks | events/s vs ${READERS[0]} |`,
    '|---|---|---|---|---:|---:|---:|',
  ];
  for (const reader of READERS) {
    const mine = results.filter((r) => r.reader === reader);
    const rate = stats(mine.map((r) => (M / r.wallMs) * 1000));
    lines.push(
      `| ${reader} | ${fmt(rate)} | ${fmt(stats(mine.map((r) => (r.cpuMs / M) * 1000)), 2)} | ${stats(mine.map((r) => r.gcMajor))[1]} / ${stats(mine.map((r) => r.gcMajorMs))[1].toFixed(0)} | ${stats(mine.map((r) => r.gcMinor))[1]} | ${stats(mine.map((r) => r.chunks))[1]} | ${(rate[1] / base).toFixed(2)}× |`,
    );
  }
  console.log(lines.join('\n'));
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', `readPath-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify({ N, M, ROUNDS, pin, load, results }, null, 1));
}
