/**
 * A test process for the kill -9 test (test/cluster/e2e/envtest.e2e.ts): starts a control plane
 * with the garbage collector, prints `{"dir": …}` and waits to be killed.
 */
import { startControlPlane } from '../../../src/envtest/index.js';

const plane = await startControlPlane({ garbageCollector: true });
process.stdout.write(`${JSON.stringify({ dir: plane.dir })}\n`);
setInterval(() => {}, 60_000);
