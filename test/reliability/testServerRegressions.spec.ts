/* Regressions found by the reliability suite in the test API server's fault controls. */
import test from 'ava';
import { createServer } from 'node:net';
import { createTestApiServer } from '../../src/testServer/index.js';
import { call } from '../testServer/apiServerClient.js';

test('overlapping refuseConnections: both resolve and the port comes back when the last one ends', async (t) => {
  const server = await createTestApiServer();
  try {
    const first = server.refuseConnections(30);
    const second = server.refuseConnections(60);
    await first;
    await t.throwsAsync(call(`${server.url}/api/v1/configmaps`), undefined, 'still refused while the second refusal lasts');
    await second;
    t.is((await call(`${server.url}/api/v1/configmaps`)).status, 200);
  } finally {
    await server.close();
  }
});

test('refuseConnections waits while something else holds the port, then listens again', async (t) => {
  const server = await createTestApiServer();
  const squatter = createServer();
  try {
    // The refusal ends only once the squatter holds the port, so the server's listen meets it
    // however slowly this process runs (a timed refusal could end before the squatter listened).
    let squatting!: () => void;
    const refused = server.refuseConnections(new Promise<void>((resolve) => (squatting = resolve)));
    await new Promise<void>((resolve, reject) => {
      squatter.once('error', reject);
      squatter.listen(server.port, '127.0.0.1', resolve);
    });
    squatting();
    setTimeout(() => squatter.close(), 80);
    await refused;
    t.false(squatter.listening, 'the server listens again only after the squatter let go');
    t.is((await call(`${server.url}/api/v1/configmaps`)).status, 200);
  } finally {
    squatter.close();
    await server.close();
  }
});
