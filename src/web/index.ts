/**
 * `rx-informer/web`: what a web console needs besides the main entry — {@link relayConnection},
 * every List+Watch of the page over one WebSocket to `rx-informer/relay` in the app's backend, and
 * {@link coalesceForScreen}, snapshots thinned to one per animation frame, the latest always shown.
 * Browser-safe (no Node built-in); it shares the main entry's modules, so errors and statuses are
 * the same classes.
 *
 * @module rx-informer/web
 */
export { relayConnection } from '../relay/relayConnection.js';
export type { RelayConnection, RelayConnectionConfig } from '../relay/relayConnection.js';
export { coalesceForScreen } from '../operators/coalesceForScreen.js';
export type { CoalesceForScreenOptions } from '../operators/coalesceForScreen.js';
