import type { ReflectorConfig } from './reflectorConfig.js';
import { resolveReflectorConfig } from './reflectorConfig.js';

/** Eager argument checks (TypeError at call time, style rule 25); the checks live in {@link resolveReflectorConfig}. */
export function validateReflectorConfig<T>(config: ReflectorConfig<T>): void {
  resolveReflectorConfig(config);
}
