/**
 * Imported first by the `rx-informer/envtest` entry, for its side effect: on a Node older than
 * client-node needs, importing the entry fails with one line naming the minimum, before
 * client-node is loaded (see testServer/nodeVersionGuard.ts).
 */
import { checkNodeVersion } from '../client/transport/nodeFloor.js';

checkNodeVersion('rx-informer/envtest');
