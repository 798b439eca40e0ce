import type { KubeStatus } from './kubeStatus.js';
import type { ObjectStore } from './objectStore.js';

/** An open watch stream, as the fault controls reach it. @internal */
export interface OpenWatch {
  readonly collection: string;
  /** Ends the stream cleanly (terminating chunk), as a server-side timeout does. */
  close(): void;
  /** Sends half a line, then drops the connection (`reset`: with a TCP RST). */
  breakMidLine(reset: boolean): void;
  /** Writes `text` as is, e.g. a malformed line. */
  writeRaw(text: string): void;
  /** Sends an ERROR event carrying `status`, then ends the stream (as the real server does). */
  fail(status: KubeStatus): void;
}

/** Timing knobs of watches, from the server options. @internal */
export interface WatchTiming {
  readonly bookmarkIntervalMs: number;
  readonly bookmarkLeadMs: number;
  readonly defaultWatchTimeoutSeconds: number;
  readonly tooLargeResourceVersionWaitMs: number;
}

/** What the request handlers share. @internal */
export interface ServerContext {
  readonly store: ObjectStore;
  readonly timing: WatchTiming;
  readonly openWatches: Set<OpenWatch>;
  /** Called whenever a watch opens or closes (wakes `waitForWatches`). */
  watchesChanged(): void;
  /** Byte size of watch chunks while the split-lines fault is on. */
  splitBytes(): number | undefined;
  /** How long live watch events of `resource` are held back while the watch-lag fault is on (0: none). */
  watchLagMs(resource: string): number;
  /** Whether a list with `resourceVersion=0` ignores `limit` (the old watch-cache behaviour). */
  readonly ignoreLimitForResourceVersionZero: boolean;
  /** Whether `shardSelector` is honoured (the gate `ShardedListAndWatch` on) or ignored. */
  readonly shardedListAndWatch: boolean;
}
