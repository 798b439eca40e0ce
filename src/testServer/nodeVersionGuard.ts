/**
 * Imported first by the `rx-informer/test-server` entry, for its side effect: on a Node older than
 * client-node needs, importing the entry fails with one line naming the minimum, before
 * `createTestApiServer.ts` loads client-node (whose HTTP stack would fail while loading, with a
 * `TypeError` from deep inside undici). ES modules run their imports in order, so this runs first.
 */
import { checkNodeVersion } from '../client/transport/nodeFloor.js';

checkNodeVersion('rx-informer/test-server');
