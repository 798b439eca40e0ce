import test from 'ava';
import { parseFieldSelector } from '../../src/testServer/fieldSelector.js';
import { parseLabelSelector, SelectorSyntaxError } from '../../src/testServer/labelSelector.js';

const labels = { app: 'web', tier: 'front', version: '3' };

const cases: [string, boolean][] = [
  ['', true],
  ['app=web', true],
  ['app==web', true],
  ['app=db', false],
  ['app!=db', true],
  ['missing!=x', true],
  ['app in (web, db)', true],
  ['app in (db)', false],
  ['missing in (x)', false],
  ['app notin (db)', true],
  ['missing notin (x)', true],
  ['app notin (web)', false],
  ['app', true],
  ['missing', false],
  ['!missing', true],
  ['!app', false],
  ['app=web,tier=front', true],
  ['app=web,tier=back', false],
  ['version>2', true],
  ['version<3', false],
  ['example.com/key', false],
  [' app = web , tier in (front,back) ', true],
];

for (const [selector, expected] of cases) {
  test(`label selector "${selector}" → ${expected}`, (t) => {
    t.is(parseLabelSelector(selector)(labels), expected);
  });
}

test('label selectors match objects without labels like empty label sets', (t) => {
  t.true(parseLabelSelector('!a')(undefined));
  t.false(parseLabelSelector('a')(undefined));
});

for (const bad of ['a=(b', 'a in b', ',', 'a,,b', 'in (x)', '-bad-=x', 'a>x', '!a=b']) {
  test(`label selector "${bad}" is a syntax error`, (t) => {
    t.throws(() => parseLabelSelector(bad), { instanceOf: SelectorSyntaxError });
  });
}

test('field selectors compare dotted paths; only allowed fields', (t) => {
  const allowed = new Set(['metadata.name', 'spec.nodeName']);
  const pod = { metadata: { name: 'p' }, spec: { nodeName: 'n1' } };
  t.true(parseFieldSelector('metadata.name=p,spec.nodeName!=n2', allowed)(pod));
  t.false(parseFieldSelector('spec.nodeName==n2', allowed)(pod));
  t.true(parseFieldSelector('spec.nodeName=', allowed)({ metadata: { name: 'q' } }), 'an absent field is the empty string');
  t.throws(() => parseFieldSelector('status.phase=Running', allowed), { message: 'field label not supported: status.phase' });
  t.throws(() => parseFieldSelector('metadata.name', allowed), { instanceOf: SelectorSyntaxError });
});
