/**
 * A latency objective (an SLO) over a sliding window: what {@link informerMetrics} evaluates when
 * given `objective`, as a state and its figures. The window is kept as twenty slices of counts, so
 * memory does not grow with the event rate.
 */
import { describe, optionChecks } from '../options/optionChecks.js';

/** A latency objective: "the `quantile` of the window's latencies is at most `targetMs`", with an alert above `alertMs`. */
export interface LatencyObjective {
  /** Which latency: the pipeline's own (socket to subscribers, default) or the watch lag (the server's write to subscribers). */
  readonly of?: 'pipeline' | 'watchLag';
  /** The quantile the target holds for, in (0, 1); default 0.95. */
  readonly quantile?: number;
  /** The target, ms: met while at least `quantile` of the window's samples took at most this long. */
  readonly targetMs: number;
  /** Alert when any sample of the window took longer than this, ms; default none. */
  readonly alertMs?: number;
  /** The window, ms; default 60 000. Evaluated to a twentieth of it. */
  readonly windowMs?: number;
}

/**
 * Where a {@link LatencyObjective} stands: `noData` — no sample in the window; `met`; `breached` —
 * more than `1 - quantile` of the window's samples were over the target; `alert` — some sample
 * was over `alertMs` (whether or not the target is met).
 */
export interface LatencyObjectiveStatus {
  /** `noData` (no sample in the window), `met`, `breached` (too many samples over the target) or `alert` (a sample over `alertMs`). */
  readonly state: 'noData' | 'met' | 'breached' | 'alert';
  /** Samples in the window. */
  readonly samples: number;
  /** Samples of the window over the target. */
  readonly overTarget: number;
  /** Samples of the window over the alert threshold (0 without one). */
  readonly overAlert: number;
  /** The longest sample of the window, ms. */
  readonly maxMs: number | undefined;
  /** The objective's quantile, resolved (default 0.95). */
  readonly quantile: number;
  /** The objective's target, ms. */
  readonly targetMs: number;
  /** The objective's alert threshold, ms; `undefined` without one. */
  readonly alertMs: number | undefined;
  /** The objective's window, ms (default 60 000). */
  readonly windowMs: number;
}

/** @internal A window of samples being evaluated against one objective. */
export interface ObjectiveWindow {
  readonly of: 'pipeline' | 'watchLag';
  /** The slice length, ms: how often the window moves on. */
  readonly sliceMs: number;
  record(now: number, ms: number): void;
  evaluate(now: number): LatencyObjectiveStatus;
}

const SLICES = 20;

/**
 * @internal Checks an objective, an option of {@link informerMetrics} (a `TypeError` naming what
 * is wrong, in the one wording of `optionChecks`), and fills in its defaults in one literal.
 */
export function resolveObjective(objective: LatencyObjective): Required<Omit<LatencyObjective, 'alertMs'>> & Pick<LatencyObjective, 'alertMs'> {
  const check = optionChecks('informerMetrics', objective, false);
  const quantile = objective.quantile;
  if (quantile !== undefined && !(typeof quantile === 'number' && quantile > 0 && quantile < 1)) check.fail(`objective.quantile must be in (0, 1), got ${describe(quantile)}`);
  // alertMs may be Infinity (never alert), so `>= 0` by hand rather than `nonNegative` (finite).
  const alertMs = objective.alertMs;
  if (alertMs !== undefined && !(typeof alertMs === 'number' && alertMs >= 0)) check.fail(`objective.alertMs must be a number >= 0, got ${describe(alertMs)}`);
  return {
    of: check.oneOf('objective.of', objective.of, ['pipeline', 'watchLag']) ?? 'pipeline',
    quantile: quantile ?? 0.95,
    targetMs: check.nonNegative('objective.targetMs', objective.targetMs) ?? check.fail('objective.targetMs is required'),
    alertMs,
    windowMs: check.positive('objective.windowMs', objective.windowMs) ?? 60_000,
  };
}

/** @internal Checks an objective ({@link resolveObjective}) and creates its window. */
export function objectiveWindow(objective: LatencyObjective): ObjectiveWindow {
  const { of, quantile, targetMs, alertMs, windowMs } = resolveObjective(objective);
  const sliceMs = windowMs / SLICES;
  // Slice i of the ring holds the samples of time slice `index[i]` (time / sliceMs, floored).
  const index = new Float64Array(SLICES).fill(-1);
  const samples = new Float64Array(SLICES);
  const over = new Float64Array(SLICES);
  const alerts = new Float64Array(SLICES);
  const max = new Float64Array(SLICES);
  const resolved = { quantile, targetMs, alertMs, windowMs };
  return {
    of,
    sliceMs,
    record(now, ms) {
      const slice = Math.floor(now / sliceMs);
      const i = slice % SLICES;
      if (index[i] !== slice) {
        index[i] = slice;
        samples[i] = over[i] = alerts[i] = max[i] = 0;
      }
      samples[i]!++;
      if (ms > targetMs) over[i]!++;
      if (alertMs !== undefined && ms > alertMs) alerts[i]!++;
      if (ms > max[i]!) max[i] = ms;
    },
    evaluate(now) {
      const current = Math.floor(now / sliceMs);
      let n = 0;
      let overTarget = 0;
      let overAlert = 0;
      let maxMs = 0;
      for (let i = 0; i < SLICES; i++) {
        if (!(index[i]! > current - SLICES && index[i]! <= current)) continue;
        n += samples[i]!;
        overTarget += over[i]!;
        overAlert += alerts[i]!;
        if (max[i]! > maxMs) maxMs = max[i]!;
      }
      const state = n === 0 ? 'noData' : overAlert > 0 ? 'alert' : overTarget > n * (1 - quantile) + 1e-9 ? 'breached' : 'met';
      return Object.freeze({ state, samples: n, overTarget, overAlert, maxMs: n === 0 ? undefined : maxMs, ...resolved });
    },
  };
}
