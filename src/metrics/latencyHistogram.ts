/**
 * The latency histograms of {@link informerMetrics}: fixed buckets, counted without allocating,
 * read as a frozen {@link LatencyHistogram} with quantiles estimated from the buckets.
 */

/**
 * Upper bounds of the buckets, in seconds: from 100 µs (a pipeline's own latency is usually well
 * under a millisecond) to 10 s, each about 2–2.5 times the last, as Prometheus's defaults step.
 */
export const latencyBuckets: readonly number[] = Object.freeze([0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);

/** One latency histogram as read: Prometheus's shape, in seconds. */
export interface LatencyHistogram {
  /** Samples observed. */
  readonly count: number;
  /** Their sum, seconds. */
  readonly sum: number;
  /** Cumulative counts: how many samples were `<= le` seconds, for each bound; `Infinity` last. */
  readonly buckets: readonly {
    /** The bucket's upper bound, seconds (`Infinity` for the last). */
    readonly le: number;
    /** Samples at most `le` seconds (cumulative). */
    readonly count: number;
  }[];
  /** Quantiles estimated from the buckets (linear within a bucket, as PromQL's `histogram_quantile`), seconds; `undefined` without samples. */
  readonly p50: number | undefined;
  /** The 0.95 quantile, estimated as `p50` is, seconds; `undefined` without samples. */
  readonly p95: number | undefined;
  /** The 0.99 quantile, estimated as `p50` is, seconds; `undefined` without samples. */
  readonly p99: number | undefined;
}

/** @internal A histogram being filled. */
export interface HistogramRecorder {
  /** Counts one sample, in milliseconds (negative ones, from clock skew, count as 0). */
  observe(ms: number): void;
  read(): LatencyHistogram;
}

/** @internal Creates an empty {@link HistogramRecorder} over {@link latencyBuckets}. */
export function histogramRecorder(): HistogramRecorder {
  const counts = new Float64Array(latencyBuckets.length + 1); // per bucket, not cumulative; the last is +Inf
  let count = 0;
  let sum = 0;
  return {
    observe(ms) {
      const seconds = ms > 0 ? ms / 1000 : 0;
      let i = 0;
      while (i < latencyBuckets.length && seconds > latencyBuckets[i]!) i++;
      counts[i]!++;
      count++;
      sum += seconds;
    },
    read() {
      const buckets: { le: number; count: number }[] = [];
      let cumulative = 0;
      for (let i = 0; i < counts.length; i++) {
        cumulative += counts[i]!;
        buckets.push(Object.freeze({ le: i < latencyBuckets.length ? latencyBuckets[i]! : Infinity, count: cumulative }));
      }
      return Object.freeze({
        count,
        sum,
        buckets: Object.freeze(buckets),
        p50: quantile(buckets, count, 0.5),
        p95: quantile(buckets, count, 0.95),
        p99: quantile(buckets, count, 0.99),
      });
    },
  };
}

/** PromQL's `histogram_quantile`: the bucket holding the q-th sample, interpolated linearly; the last finite bound for the +Inf bucket. */
function quantile(buckets: readonly { le: number; count: number }[], count: number, q: number): number | undefined {
  if (count === 0) return undefined;
  const rank = q * count;
  let lower = 0;
  let below = 0;
  for (const { le, count: cumulative } of buckets) {
    if (cumulative >= rank) {
      if (le === Infinity) return lower;
      const inBucket = cumulative - below;
      return inBucket === 0 ? le : lower + (le - lower) * ((rank - below) / inBucket);
    }
    lower = le;
    below = cumulative;
  }
  return lower;
}
