/**
 * What every Node contender shares: memory readings, the stdout/stdin protocol of bench/protocol.ts,
 * and the check of each arriving object against the armed measurement.
 */
import { createInterface } from 'node:readline';
import { nowMs, SEQ_ANNOTATION, TIME_ANNOTATION, type MeasureCommand } from '../protocol.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('contenders run with --expose-gc');

/** Heap used after a full GC, bytes. */
export function heapAfterGC(): number {
  for (let i = 0; i < 3; i++) gc!();
  return process.memoryUsage().heapUsed;
}

export const maxRSS = (): number => process.resourceUsage().maxRSS * 1024;

export const emit = (message: object): void => void process.stdout.write(`${JSON.stringify(message)}\n`);

type Annotated = { metadata?: { annotations?: Readonly<Record<string, string>> | null } } | null | undefined;

/**
 * A contender calls `start` just before it lists, `synced(count)` once its cache holds the list,
 * and `seen(object)` for every object that reaches its cache/callback from the watch.
 */
export function harness(instruments?: { armed(): void; measured(): Record<string, number | undefined> }): { start(): void; synced(count: number): void; seen(object: Annotated): void } {
  const heapBaseline = heapAfterGC();
  let start = 0;
  let target = -1;
  let record = false;
  let latencies: number[] = [];
  const seen = (object: Annotated): void => {
    const annotations = object?.metadata?.annotations;
    const seq = annotations?.[SEQ_ANNOTATION];
    if (seq === undefined || target < 0) return;
    const now = nowMs();
    if (record) latencies.push(now - Number(annotations![TIME_ANNOTATION]));
    if (Number(seq) === target) {
      target = -1;
      emit({ type: 'measured', lastSeen: now, latencies, maxRSS: maxRSS(), ...(instruments ? { instruments: instruments.measured() } : {}) });
    }
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    const command = JSON.parse(line) as MeasureCommand | { type: 'exit' };
    if (command.type === 'exit') process.exit(0);
    heapAfterGC();
    latencies = [];
    record = command.record;
    target = command.last;
    instruments?.armed();
    emit({ type: 'armed' });
  });
  return {
    start: () => void (start = nowMs()),
    synced(count) {
      const synced = nowMs();
      emit({ type: 'synced', start, synced, count, heapBaseline, heapAfterGC: heapAfterGC(), maxRSS: maxRSS() });
    },
    seen,
  };
}
