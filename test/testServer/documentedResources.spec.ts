/**
 * The test server's TSDoc names what it serves (issue 25 item 6): createTestApiServer,
 * TestApiServerConfig.resources and builtinResources each name every built-in resource, so a
 * resource added to the table and not to the docs fails here.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { builtinResources } from '../../src/testServer/resourceType.js';

const source = (file: string) => readFile(new URL(`../../src/testServer/${file}`, import.meta.url), 'utf8');

/** The TSDoc comment right before `declaration` in `text`. */
function docBefore(text: string, declaration: string): string {
  const at = text.indexOf(declaration);
  const start = text.lastIndexOf('/**', at);
  return at < 0 || start < 0 ? '' : text.slice(start, text.indexOf('*/', start) + 2).replace(/\n\s*\* ?/g, ' ');
}

test('the TSDoc of createTestApiServer, TestApiServerConfig.resources and builtinResources names every built-in resource', async (t) => {
  const docs = {
    createTestApiServer: docBefore(await source('createTestApiServer.ts'), 'export async function createTestApiServer'),
    'TestApiServerConfig.resources': docBefore(await source('testApiServer.ts'), 'readonly resources?: readonly ResourceType[]'),
    builtinResources: docBefore(await source('resourceType.ts'), 'export const builtinResources'),
  };
  for (const [where, doc] of Object.entries(docs)) {
    t.not(doc, '', where);
    const missing = builtinResources.filter(({ kind, group }) => !doc.includes(`${group === '' || group === 'apiextensions.k8s.io' ? '' : `${group} `}${kind}s`));
    t.deepEqual(missing.map(({ kind }) => kind), [], `${where}: ${doc}`);
  }
});
