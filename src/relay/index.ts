/**
 * `rx-informer/relay`: the backend half of `relayConnection()` — one WebSocket per page carrying
 * every List+Watch of the page to the API server, each with the page's own token. Node only.
 *
 * @module rx-informer/relay
 */
export { createRelay } from './createRelay.js';
export type { Relay, RelayOptions, RelayStats } from './createRelay.js';
export type { RelayRequestMessage, RelayResponseMessage } from './relayProtocol.js';
