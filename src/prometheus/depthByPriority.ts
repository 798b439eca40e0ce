import type { Gauge } from 'prom-client';

/**
 * controller-runtime's cap on the distinct priorities one queue labels `workqueue_depth` with;
 * past it every item counts under {@link exceededLabel}, so a reconciler that makes up priorities
 * cannot blow up the series count.
 */
const maxPriorities = 25;
/** controller-runtime's `priority` value once a queue has seen more than {@link maxPriorities}. */
const exceededLabel = 'exceeded_cardinality_limit';

/** @internal The depth of one work queue per priority, as {@link depthByPriority} keeps it. */
export interface DepthByPriority {
  /** One more item waits at `priority` (`undefined`: a queue without priorities, label `""`). */
  inc(priority: number | undefined): void;
  /** One item less waits at `priority`. */
  dec(priority: number | undefined): void;
  /** Every count back to 0 (the queue stopped); the series stay. */
  reset(): void;
}

/**
 * @internal `workqueue_depth{name, controller, priority}` of one queue, as controller-runtime's
 * priority queue labels it: `priority` is the decimal integer (`"-100"`, `"0"`), `""` for a queue
 * without priorities, and `exceeded_cardinality_limit` for every item once the queue has seen more
 * than 25 distinct priorities. Unlike controller-runtime, which leaves the series it had labelled
 * until then where they were, the counts they held move to `exceeded_cardinality_limit`, so the
 * sum over `priority` stays the queue's depth.
 *
 * @param gauge the shared `workqueue_depth` gauge (labels `name`, `controller`, `priority`).
 * @param labels the queue's `name` and `controller`.
 * @returns counters that write through to `gauge`.
 */
export function depthByPriority(gauge: Gauge<string>, labels: { readonly name: string; readonly controller: string }): DepthByPriority {
  const counts = new Map<string, number>();
  let exceeded = false;
  const write = (label: string, count: number): void => {
    counts.set(label, count);
    gauge.set({ ...labels, priority: label }, count);
  };
  const labelOf = (priority: number | undefined): string => {
    const label = priority === undefined ? '' : String(priority);
    if (exceeded) return exceededLabel;
    if (counts.has(label) || counts.size < maxPriorities) return label;
    exceeded = true;
    let moved = 0;
    for (const [old, count] of counts) {
      moved += count;
      write(old, 0);
    }
    counts.clear();
    write(exceededLabel, moved);
    return exceededLabel;
  };
  const add = (priority: number | undefined, by: number): void => {
    const label = labelOf(priority);
    write(label, (counts.get(label) ?? 0) + by);
  };
  return {
    inc: (priority) => add(priority, 1),
    dec: (priority) => add(priority, -1),
    reset() {
      for (const label of counts.keys()) write(label, 0);
    },
  };
}
