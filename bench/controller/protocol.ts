/**
 * What the harness of `npm run bench:controller` (bench/controller/run.ts) and its contenders
 * (bench/controller/rxController.ts, bench/controller/controller-runtime/main.go) say to each other: one JSON
 * line per event on the contender's stdout, each with `t`, CLOCK_MONOTONIC in ms (the same clock in
 * every process: bench/core/protocol.ts's `nowMs`).
 */

/** The annotation of the change whose latency is measured; a reconcile that reads it says `fresh`. */
export const freshAnnotation = 'bench.rx-informer.dev/fresh';

/** One event of a contender. */
export type ControllerEvent =
  /** Just before the controller (or manager) starts. */
  | { readonly type: 'start'; readonly t: number }
  /** The first reconcile ended. */
  | { readonly type: 'first'; readonly t: number }
  /** `-mark` distinct objects have been reconciled. */
  | { readonly type: 'mark'; readonly t: number }
  /** `-n` distinct objects have been reconciled; `cpuMs`: the process's CPU time since `start`. */
  | { readonly type: 'all'; readonly t: number; readonly cpuMs: number; readonly reconciles: number }
  /** A reconcile of the `-fresh` object read the fresh annotation. */
  | { readonly type: 'fresh'; readonly t: number; readonly reconciles: number }
  /** This replica became the leader. */
  | { readonly type: 'leader'; readonly t: number }
  /** A follower is ready for a failover (warm: its informer synced). */
  | { readonly type: 'standby'; readonly t: number };

/** Writes one event line. */
export const emit = (event: ControllerEvent): void => void process.stdout.write(`${JSON.stringify(event)}\n`);
