/**
 * Every member the API reference lists — a property or method of an exported interface, class or
 * object type, an enum member, a property of an inline option object — says what it is: an empty
 * line under a name in the reference (126 on the controller page, issue 43) leaves a reader to guess
 * from the type. Checked with the TypeScript compiler API over the entry points of typedoc.json,
 * without running TypeDoc (see test/helpers/memberSummaries.ts for what counts as a member).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { membersWithoutSummary } from '../helpers/memberSummaries.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { entryPoints } = JSON.parse(readFileSync(`${root}typedoc.json`, 'utf8')) as { entryPoints: string[] };

test('the entry points checked are those of the API reference', (t) => {
  t.true(entryPoints.includes('src/controllerEntry.ts'));
  t.true(entryPoints.length >= 9, `${entryPoints.length} entry points`);
});

const empty = membersWithoutSummary(entryPoints);

for (const entry of entryPoints) {
  test(`every member reachable from ${entry} has a summary`, (t) => {
    t.deepEqual(
      (empty.get(entry) ?? []).map((member) => `${member.where} ${member.name}`),
      [],
    );
  });
}
