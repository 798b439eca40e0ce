import { ControllerError } from '../errors.js';

/**
 * Wraps an error that retrying cannot fix (a spec that will never be valid): thrown or rejected by a
 * reconcile handler, the key is not retried until it is triggered again, and its failure count is
 * kept (controller-runtime's `reconcile.TerminalError`). The outcome is `result: 'terminal'`.
 *
 * ## Example
 * ```ts
 * import { terminal, type Reconciler } from 'rx-informer/controller';
 * import type { KubeObject } from 'rx-informer';
 *
 * interface ConfigMapSet extends KubeObject { readonly spec?: { readonly names?: readonly string[] } }
 * const reconcileSet: Reconciler<ConfigMapSet> = (set) => {
 *   const bad = set?.spec?.names?.find((name) => !/^[a-z0-9-]+$/.test(name));
 *   if (bad !== undefined) throw terminal(new Error(`spec.names: ${bad} is not a DNS label`));
 * };
 * ```
 *
 * @param cause what went wrong (kept as `cause`; its message is the message).
 * @returns a {@link ControllerError} with reason `terminal`.
 */
export function terminal(cause: unknown): ControllerError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new ControllerError('terminal', `${message.replace(/^\[informer\] /, '')} (terminal: not retried until the object is triggered again)`, { cause });
}
