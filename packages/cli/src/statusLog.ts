import type { KubeObject, ListWatchStatus, Snapshot } from 'rx-informer';
import { isHopeless } from './failureText.js';
import { formatIndexSummary, indexSummary } from './indexSummary.js';
import type { CliOutput } from './liveScreen.js';
import { progressLine, statusLine } from './statusText.js';
import type { ResolvedWatch, WatchOutput } from './watchOutput.js';
import type { WatchState } from './watchState.js';

/** Options of {@link createStatusLog}. */
export interface StatusLogConfig {
  readonly state: WatchState;
  /** Where the lines go: stderr, so that stdout carries rows or objects only. */
  readonly out: CliOutput;
  readonly indexNames: readonly string[];
}

/** The progress and state lines of a watch whose objects go elsewhere. */
export interface StatusLog {
  resolved(watch: ResolvedWatch): void;
  unreachable(message: string, delayMs: number): void;
  status(status: ListWatchStatus): void;
  synced(snapshot: Snapshot<KubeObject>): void;
  warning(message: string): void;
  /** A status line, when the counts or the phase changed since the last one. */
  tick(snapshot: Snapshot<KubeObject>): void;
  /** The last status line and the index summaries. */
  close(snapshot: Snapshot<KubeObject>): void;
}

/**
 * Plain lines about the watch for stderr, no cursor control: list progress per page, the watch
 * state as it changes, the sync and the index summaries, a status line a tick while events flow,
 * a summary at the end. An error that ends the command is left out here: it is printed once, last.
 *
 * @param config the state, the stream and the index names.
 */
export function createStatusLog(config: StatusLogConfig): StatusLog {
  const { state, out, indexNames } = config;
  const log = (line: string): void => void out.write(`${line}\n`);
  let watch: ResolvedWatch | undefined;
  let last = '';
  const plural = (): string => watch?.resource.plural ?? 'objects';
  /** What `count` objects are called: kubectl's singular (the lower-cased kind) for one. */
  const noun = (count: number): string => (count === 1 && watch !== undefined ? watch.resource.kind.toLowerCase() : plural());
  /** The counts and phase the last status line showed: the closing line is not printed again for the same. */
  const shown = (): string => `${state.counts.add}/${state.counts.update}/${state.counts.delete}/${state.phase.type}`;
  const summaries = (snapshot: Snapshot<KubeObject>, limit: number): void => {
    for (const name of indexNames) log(formatIndexSummary(indexSummary(snapshot, name, limit)));
  };
  return {
    resolved: (resolved) => void (watch = resolved),
    unreachable: (message, delayMs) => log(`Unable to connect to the server: ${message}; retrying in ${(delayMs / 1000).toFixed(1)}s`),
    status(status) {
      switch (status.type) {
        case 'LISTING':
          if (status.page > 0) log(`listing ${plural()}: ${progressLine(state.list, Date.now()).replace(/^syncing (\u00b7 )?/, '')}`);
          return;
        case 'WATCHING':
          return log(`watching ${plural()} from resourceVersion ${status.resourceVersion}`);
        case 'BACKING_OFF':
          return log(`backing off ${(status.delay / 1000).toFixed(1)}s (attempt ${status.attempt}, then ${status.next})`);
        case 'RELISTING':
          return log(`relisting ${plural()} (${status.reason})`);
        case 'ERROR':
          if (!status.permanent && !isHopeless(status.error)) log(status.error.message.replace(/^\[informer\] /, ''));
      }
    },
    synced(snapshot) {
      const took = state.syncMs === undefined ? '' : ` in ${(state.syncMs / 1000).toFixed(2)}s`;
      log(`synced ${snapshot.size.toLocaleString('en-US')} ${noun(snapshot.size)}${took} (${state.syncPages} page${state.syncPages === 1 ? '' : 's'}) at resourceVersion ${snapshot.resourceVersion}`);
      summaries(snapshot, 20);
    },
    warning: (message) => log(message.replace(/^\[informer\] /, '')),
    tick(snapshot) {
      if (!snapshot.synced) return;
      const now = shown();
      if (now === last) return;
      last = now;
      log(`${new Date().toISOString().slice(11, 19)} ${statusLine(state, snapshot, noun(snapshot.size), Date.now())}`);
    },
    close(snapshot) {
      if (shown() !== last) log(statusLine(state, snapshot, noun(snapshot.size), Date.now()));
      summaries(snapshot, 10);
    },
  };
}

/** What an output that streams rows or objects does itself; the rest is the status log's. */
export type StreamedParts = Pick<WatchOutput, 'resolved' | 'update' | 'synced'>;

/**
 * A {@link WatchOutput} for a stream: `objects` prints the rows or objects (on stdout), `messages`
 * everything else (on stderr), a status line a second.
 *
 * @param messages the status log.
 * @param objects what goes on stdout, told after the log.
 */
export function streamedOutput(messages: StatusLog, objects: StreamedParts): WatchOutput {
  let resolved = false;
  return {
    tickMs: 1000,
    unreachable: messages.unreachable,
    resolved(watch) {
      resolved = true;
      messages.resolved(watch);
      objects.resolved(watch);
    },
    status: messages.status,
    update: objects.update,
    synced(snapshot) {
      messages.synced(snapshot);
      objects.synced(snapshot);
    },
    warning: messages.warning,
    tick: messages.tick,
    close(summary) {
      if (summary && resolved) messages.close(summary.snapshot);
    },
  };
}
