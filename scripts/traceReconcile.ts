/**
 * Traces one reconcile through the built package (`dist/`, as a user imports it) and prints the way
 * it took: an informer over `fakeListWatch` (rx-informer, rx-informer/testing), `controller()`
 * (rx-informer/controller), the initial list reconciled and one MODIFIED of the primary as a
 * warm-up, then one more MODIFIED of the primary, traced from the watch event to its outcome.
 *
 *   npm run trace:reconcile            (builds dist/ first)
 *   node scripts/traceReconcile.ts [--plain] [--json]
 *
 * What it measures, and how:
 * - **Files and functions that ran** for that one change: V8's precise coverage
 *   (`Profiler.startPreciseCoverage({ callCount: true, detailed: true })`). Taking the coverage
 *   resets its counters, so it is taken once just before the change (and thrown away) and once
 *   when its outcome has arrived: a function ran when its count in the second take is above 0.
 *   Library files are those under `dist/` but `dist/testing/` (the fake API server stands in for
 *   the cluster: it is listed, not counted); rxjs and the script are counted apart.
 * - **Entries** into files of the controller and client rooms: those files are loaded with one
 *   statement at the top of every function (scripts/traceReconcileHooks.ts) that captures the
 *   stack when it runs during the traced change. A call is an *entry* when the nearest frame below
 *   it that is not rxjs lies in another file (or outside the library); it comes *from below* when
 *   that file is one the entered file imports, directly or not (the floors run one way, so a call
 *   from a file beneath is a call back up). The first entry of the change into the top of the way
 *   is the event arriving; every later entry from below is a re-entry. `--plain` loads the build
 *   untouched and skips this count, to check the other figures do not depend on it.
 * - **The stack at the reconciler**: `Error.stackTraceLimit = Infinity` and `new Error().stack`
 *   in the reconciler; the frames below the reconciler's own, sorted into the library's, rxjs's
 *   and the rest (Node's internals, built-ins).
 * - **Ref ↔ key conversions**: the call counts of `refCacheKey` and `refOfCacheKey`.
 *
 * Prints a report (or JSON with `--json`); exits 1 when the trace did not reach the reconciler.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { register } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

Error.stackTraceLimit = Infinity;
const args = process.argv.slice(2);
const plain = args.includes('--plain');
const json = args.includes('--json');
const root = fileURLToPath(new URL('../', import.meta.url));
const dist = join(root, 'dist');

interface Entry {
  readonly file: string;
  readonly name: string;
  readonly from: string;
}
const entries: Entry[] = [];
let recording = false;

/** Where a frame of a stack trace lives: a dist/ file (relative), `rxjs`, `native` (a built-in such as `Array.map`), or `other`. */
function frameFile(line: string): string {
  if (line.includes('(<anonymous>)') || line.includes('(native)')) return 'native';
  const match = /\(?(file:\/\/[^\s)]+?|\/[^\s)]+?|node:[^\s)]+?):\d+:\d+\)?$/.exec(line.trim());
  if (match === null) return 'other';
  const path = match[1]!.startsWith('file://') ? fileURLToPath(match[1]!) : match[1]!;
  if (path.includes('/node_modules/rxjs/')) return 'rxjs';
  if (path.startsWith(dist + '/')) return relative(dist, path);
  return 'other';
}

function frames(stack: string | undefined): string[] {
  return (stack ?? '').split('\n').slice(1).filter((line) => line.trim().startsWith('at '));
}

(globalThis as { __rxTraceEnter?: (file: string, name: string) => void }).__rxTraceEnter = function enter(file: string, name: string): void {
  if (!recording) return;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, enter);
  const [, ...below] = frames(holder.stack).map(frameFile); // [0] is the entered function itself
  const caller = below.find((f) => f !== 'rxjs' && f !== 'native') ?? 'other';
  if (caller !== file) entries.push({ file, name, from: caller });
};

if (!plain) register('./traceReconcileHooks.ts', import.meta.url);

const { informer } = await import('rx-informer');
const { fakeListWatch } = await import('rx-informer/testing');
const { controller } = await import('rx-informer/controller');
type KubeObject = import('rx-informer').KubeObject;

interface Widget extends KubeObject {
  readonly spec?: { readonly size?: number };
}
const widget = (name: string, size = 1): Widget => ({ apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name, namespace: 'demo', uid: `uid-${name}` }, spec: { size } });

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });

const api = fakeListWatch<Widget>([widget('a'), widget('b'), widget('c')]);
let stackAtReconciler: string | undefined;
let traced = false;
const outcomes: { key: string; rv: string | undefined }[] = [];
const waiters: { key: string; rv: string; resolve: () => void }[] = [];
const subscription = controller(informer(api.events$), {
  reconcile: (object) => {
    if (recording && object?.spec?.size === 3) {
      stackAtReconciler = new Error('at the reconciler').stack;
      traced = true;
    }
  },
}).subscribe((outcome) => {
  const rv = outcome.reasons.find((r) => r.type === 'changed')?.resourceVersion;
  outcomes.push({ key: outcome.key, rv });
  for (const w of waiters.splice(0)) (w.key === outcome.key && w.rv === rv ? w.resolve : () => waiters.push(w))();
});

/** Resolves when an outcome for `key` whose reasons carry resourceVersion `rv` has come. */
const outcomeOf = (key: string, rv: string): Promise<void> =>
  outcomes.some((o) => o.key === key && o.rv === rv) ? Promise.resolve() : new Promise((resolve) => waiters.push({ key, rv, resolve }));

// Warm-up: the initial list is reconciled, then one MODIFIED of the primary.
await new Promise((resolve) => setTimeout(resolve, 50));
const warm = api.modify(widget('a', 2));
await outcomeOf('demo/a', warm.metadata!.resourceVersion!);
await new Promise((resolve) => setTimeout(resolve, 50));

// The traced change.
await session.post('Profiler.takePreciseCoverage'); // resets the counters
recording = true;
const changed = api.modify(widget('a', 3));
await outcomeOf('demo/a', changed.metadata!.resourceVersion!);
recording = false;
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
subscription.unsubscribe();
session.disconnect();

if (!traced) {
  console.error('traceReconcile: the traced change did not reach the reconciler');
  process.exit(1);
}

// What ran.
const ran = new Map<string, string[]>();
let rxjsFunctions = 0;
const conversions = { refCacheKey: 0, refOfCacheKey: 0 };
for (const script of result) {
  if (!script.url.startsWith('file://')) continue;
  const path = fileURLToPath(script.url);
  const inDist = path.startsWith(dist + '/');
  const names: string[] = [];
  for (const fn of script.functions) {
    const count = fn.ranges[0]?.count ?? 0;
    if (count === 0 || fn.functionName === '' && fn.ranges[0]?.startOffset === 0) continue; // the module's top level
    if (path.includes('/node_modules/rxjs/')) rxjsFunctions++;
    if (!inDist) continue;
    names.push(`${fn.functionName || '(anonymous)'}${count > 1 ? ` ×${count}` : ''}`);
    if (fn.functionName in conversions) conversions[fn.functionName as keyof typeof conversions] += count;
  }
  if (inDist && names.length > 0) ran.set(relative(dist, path), names);
}
const fake = [...ran.keys()].filter((f) => f.startsWith('testing/')).sort();
const files = [...ran.keys()].filter((f) => !f.startsWith('testing/')).sort();
const roomOf = (file: string) => (file.startsWith('controller/') || file.startsWith('client/') ? 'controller+client' : file.split('/')[0]!);
const roomFiles = files.filter((f) => roomOf(f) === 'controller+client');
const functions = files.reduce((n, f) => n + ran.get(f)!.length, 0);

// The stack at the reconciler.
const stackFiles = frames(stackAtReconciler).slice(1).map(frameFile); // [0] is the reconciler itself
const ours = stackFiles.filter((f) => f !== 'rxjs' && f !== 'other' && f !== 'native').length;
const rxjs = stackFiles.filter((f) => f === 'rxjs').length;

// Which files each file imports, directly or not (from the built files' import statements).
const importsOf = new Map<string, Set<string>>();
const directImports = (file: string): string[] => {
  const source = readFileSync(join(dist, file), 'utf8');
  return [...source.matchAll(/^(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)].map((m) => relative(dist, join(dirname(join(dist, file)), m[1]!)));
};
const below = (file: string): Set<string> => {
  const known = importsOf.get(file);
  if (known) return known;
  const found = new Set<string>();
  importsOf.set(file, found);
  for (const next of directImports(file)) {
    found.add(next);
    for (const deeper of below(next)) found.add(deeper);
  }
  return found;
};
const perFile = new Map<string, { entries: number; fromBelow: number; from: Map<string, number> }>();
for (const e of entries) {
  const row = perFile.get(e.file) ?? { entries: 0, fromBelow: 0, from: new Map<string, number>() };
  row.entries++;
  if (e.from !== 'other' && below(e.file).has(e.from)) row.fromBelow++;
  const label = `${e.name} ← ${e.from}`;
  row.from.set(label, (row.from.get(label) ?? 0) + 1);
  perFile.set(e.file, row);
}
const reentered = [...perFile.entries()].filter(([, row]) => row.fromBelow > 1);

const report = {
  files: files.length,
  roomFiles: roomFiles.length,
  functions,
  rxjsFunctions,
  frames: { total: stackFiles.length, ours, rxjs, other: stackFiles.length - ours - rxjs },
  conversions,
  entries: plain ? undefined : Object.fromEntries([...perFile.entries()].map(([file, row]) => [file, { entries: row.entries, fromBelow: row.fromBelow, from: Object.fromEntries(row.from) }])),
  reentered: plain ? undefined : reentered.map(([file, row]) => ({ file, fromBelow: row.fromBelow })),
  ran: Object.fromEntries([...files, ...fake].map((f) => [f, ran.get(f)])),
};
if (json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const line = (text = '') => console.log(text);
  line(`One MODIFIED of the primary, traced through ${relative(root, dist)}/ (${pathToFileURL(root).pathname}):`);
  line(`  ${files.length} library files, ${functions} library functions ran (rxjs: ${rxjsFunctions} functions; the fake API: ${fake.join(', ')})`);
  line(`  ${roomFiles.length} of the files in the controller and client rooms: ${roomFiles.join(', ')}`);
  line(`  stack below the reconciler: ${stackFiles.length} frames (${ours} ours, ${rxjs} rxjs, ${stackFiles.length - ours - rxjs} other)`);
  line(`  ref ↔ key conversions: refCacheKey ×${conversions.refCacheKey}, refOfCacheKey ×${conversions.refOfCacheKey}`);
  if (!plain) {
    line('  entries into controller/client files (caller: nearest non-rxjs frame in another file; ↑ = from a file it imports):');
    for (const [file, row] of [...perFile.entries()].sort()) {
      line(`    ${file}: entered ${row.entries}×, ${row.fromBelow}× from below`);
      for (const [label, n] of row.from) line(`      ${n}× ${label}${below(file).has(label.split(' ← ')[1]!) ? ' ↑' : ''}`);
    }
    line(`  files entered again from below: ${reentered.length === 0 ? 'none' : reentered.map(([f, r]) => `${f} (${r.fromBelow}×)`).join(', ')}`);
  }
  line('  functions per file:');
  for (const f of [...files, ...fake]) line(`    ${f}: ${ran.get(f)!.join(', ')}`);
  line('  the stack at the reconciler, innermost first:');
  for (const frame of frames(stackAtReconciler)) line(`    ${frameFile(frame).padEnd(36)} ${frame.trim().replace(/^at /, '').replace(/\(.*\/(dist|node_modules)\//, '($1/')}`);
}
