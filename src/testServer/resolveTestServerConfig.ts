import type { CorsConfig } from './cors.js';
import type { WatchTiming } from './serverContext.js';
import type { ResourceType } from './resourceType.js';
import type { TestApiServerConfig } from './testApiServer.js';

/** A {@link TestApiServerConfig} with every default filled in. @internal */
export interface ResolvedTestServerConfig {
  readonly resources: readonly ResourceType[];
  readonly changeLogSize: number;
  readonly initialResourceVersion: number;
  readonly timing: WatchTiming;
  readonly token: string | undefined;
  readonly userName: string;
  readonly namespace: string;
  readonly port: number;
  readonly ignoreLimitForResourceVersionZero: boolean;
  readonly shardedListAndWatch: boolean;
  readonly cors: CorsConfig | undefined;
}

/**
 * Fills in the defaults of the test server's config, all in this one literal (the real server's
 * where it has one: a bookmark a minute, watches of 30 minutes). The config is a test's own, so it
 * is taken as given, unchecked. @internal
 */
export function resolveTestServerConfig(config: TestApiServerConfig): ResolvedTestServerConfig {
  return {
    resources: config.resources ?? [],
    changeLogSize: config.changeLogSize ?? 10_000,
    initialResourceVersion: config.initialResourceVersion ?? 1,
    timing: {
      bookmarkIntervalMs: config.bookmarkIntervalMs ?? 60_000,
      bookmarkLeadMs: config.bookmarkLeadMs ?? 2_000,
      defaultWatchTimeoutSeconds: config.defaultWatchTimeoutSeconds ?? 1_800,
      tooLargeResourceVersionWaitMs: config.tooLargeResourceVersionWaitMs ?? 3_000,
    },
    token: config.token,
    userName: config.userName ?? 'test-user',
    namespace: config.namespace ?? 'default',
    port: config.port ?? 0,
    ignoreLimitForResourceVersionZero: config.ignoreLimitForResourceVersionZero ?? false,
    shardedListAndWatch: config.shardedListAndWatch ?? true,
    cors: config.cors,
  };
}
