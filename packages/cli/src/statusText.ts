import type { ListProgress, WatchState, WatchPhase } from './watchState.js';

const n = (value: number): string => value.toLocaleString('en-US');
const seconds = (ms: number): string => `${(Math.max(0, ms) / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;

/** The watch state in words: `watching from resourceVersion 123`, `backing off 1.6s (attempt 2, then relist): …`. */
export function phaseText(phase: WatchPhase, now: number): string {
  switch (phase.type) {
    case 'resolving':
      return 'resolving the resource';
    case 'unreachable':
      return `server unreachable, retrying in ${seconds(phase.retryAt - now)}: ${phase.message}`;
    case 'listing':
      return 'listing';
    case 'opening':
      return 'opening the watch';
    case 'watching':
      return 'watching';
    case 'backingOff':
      return `backing off ${seconds(phase.until - now)} (attempt ${phase.attempt}, then ${phase.next}): ${phase.reason}`;
    case 'relisting':
      return `relisting (${phase.reason})${phase.page > 0 ? ` · page ${n(phase.page)} · ${n(phase.items)} items` : ''}`;
  }
}

/**
 * The summary of a watch in two parts: what it is doing (state, cache size, sync time, relists)
 * and its events (rate and live counts by type).
 *
 * @param state the watch state.
 * @param snapshot the cache (its size and resourceVersion).
 * @param plural what the objects are (`pods`).
 * @param now the current time.
 */
export function statusParts(state: WatchState, snapshot: { readonly size: number; readonly resourceVersion: string }, plural: string, now: number): { readonly state: string; readonly events: string } {
  const rate = state.rate(now);
  const parts = [
    `${phaseText(state.phase, now)}${state.phase.type === 'watching' && snapshot.resourceVersion ? ` at resourceVersion ${snapshot.resourceVersion}` : ''}`,
    `${n(snapshot.size)} ${plural}`,
  ];
  if (state.syncMs !== undefined) parts.push(`synced in ${seconds(state.syncMs)} (${n(state.syncPages)} page${state.syncPages === 1 ? '' : 's'})`);
  if (state.relists > 0) parts.push(`${n(state.relists)} relist${state.relists === 1 ? '' : 's'}`);
  const events = `${rate >= 100 ? n(Math.round(rate)) : rate.toFixed(1)} events/s · add ${n(state.counts.add)} · update ${n(state.counts.update)} · delete ${n(state.counts.delete)}`;
  return { state: parts.join(' · '), events };
}

/**
 * {@link statusParts} on one line, for plain output:
 * `watching at resourceVersion 5123 · 5,000 pods · synced in 0.8s (10 pages) · 312 events/s · add 120 · update 3,400 · delete 118`
 */
export function statusLine(state: WatchState, snapshot: { readonly size: number; readonly resourceVersion: string }, plural: string, now: number): string {
  const parts = statusParts(state, snapshot, plural, now);
  return `${parts.state} · ${parts.events}`;
}

/**
 * The initial-sync progress: a bar when the server estimates what remains, counts otherwise.
 * `syncing [██████████░░░░░░░░░░] 50% · page 5 · 2,500 items · ~2,500 to go · 0.4s`
 *
 * @param list the current list's progress.
 * @param now the current time.
 * @param barWidth characters of the bar.
 */
export function progressLine(list: ListProgress | undefined, now: number, barWidth = 30): string {
  if (!list || list.page === 0) return `syncing · waiting for the first page · ${seconds(list ? now - list.startedAt : 0)}`;
  const elapsed = seconds(now - list.startedAt);
  const head = `page ${n(list.page)} · ${n(list.itemsSoFar)} items`;
  if (list.remainingItemCount === undefined) return `syncing · ${head} · ${elapsed}`;
  const total = list.itemsSoFar + list.remainingItemCount;
  const fraction = total === 0 ? 1 : list.itemsSoFar / total;
  const filled = Math.round(fraction * barWidth);
  return `syncing [${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}] ${Math.floor(fraction * 100)}% · ${head} · ~${n(list.remainingItemCount)} to go · ${elapsed}`;
}
