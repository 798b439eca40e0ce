/** What the soak's child processes report about themselves. */

/** A required environment variable. */
export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`[soak] ${name} is not set`);
  return value;
}

/** Heap and RSS in bytes, after a full GC when the process runs with --expose-gc. */
export function memorySample(): { heapUsed: number; rss: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

/**
 * The handles still open once the process's work is stopped, less its own stdio: sockets, timers,
 * servers a stopped informer or controller left behind. Waits up to `withinMs` for them to close
 * (sockets close a tick after their request is aborted) before it reports what is left.
 */
export async function activeHandles(withinMs: number): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  const open = (): string[] => process.getActiveResourcesInfo().filter((kind) => !['TTYWrap', 'PipeWrap', 'FSReqCallback', 'FileHandle'].includes(kind));
  while (open().length > 0 && Date.now() < deadline) await new Promise<void>((resolve) => setTimeout(resolve, 20));
  return open();
}
