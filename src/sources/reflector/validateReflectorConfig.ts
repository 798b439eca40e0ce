import { createBackoff } from './backoff.js';
import type { ReflectorConfig } from './reflectorConfig.js';

/** Eager argument checks (TypeError at call time, style rule 25). */
export function validateReflectorConfig<T>(config: ReflectorConfig<T>): void {
  if (config === null || typeof config !== 'object') throw new TypeError('[informer] config must be an object');
  positiveInteger('pageSize', config.pageSize);
  positiveInteger('timeoutSeconds', config.timeoutSeconds);
  if (config.idleTimeout !== undefined && !(config.idleTimeout > 0)) {
    throw new TypeError(`[informer] idleTimeout must be > 0 ms, got ${config.idleTimeout}`);
  }
  if (config.fatalErrors !== undefined && config.fatalErrors !== 'transient' && config.fatalErrors !== 'permanent') {
    throw new TypeError(`[informer] fatalErrors must be 'transient' or 'permanent', got ${String(config.fatalErrors)}`);
  }
  for (const name of ['transform', 'onStatus'] as const) {
    if (config[name] !== undefined && typeof config[name] !== 'function') {
      throw new TypeError(`[informer] ${name} must be a function`);
    }
  }
  createBackoff(config.backoff, () => 0);
}

function positiveInteger(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
    throw new TypeError(`[informer] ${name} must be a positive integer, got ${value}`);
  }
}
