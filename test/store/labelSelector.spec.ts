import test from 'ava';
import { matchesLabels, parseLabelSelector } from '../../src/store/labelSelector.js';
import { LabelSelectorError } from '../../src/errors.js';

const matrix: [selector: string, labels: Record<string, string>, expected: boolean][] = [
  ['', {}, true],
  ['app=web', { app: 'web' }, true],
  ['app==web', { app: 'web' }, true],
  ['app=web', { app: 'db' }, false],
  ['app!=web', { app: 'db' }, true],
  ['app!=web', {}, true],
  ['app!=web', { app: 'web' }, false],
  ['tier in (a, b)', { tier: 'b' }, true],
  ['tier in (a,b)', { tier: 'c' }, false],
  ['tier in (a,b)', {}, false],
  ['tier notin (a,b)', { tier: 'c' }, true],
  ['tier notin (a,b)', {}, true],
  ['tier notin (a,b)', { tier: 'a' }, false],
  ['gpu', { gpu: '' }, true],
  ['gpu', {}, false],
  ['!gpu', {}, true],
  ['!gpu', { gpu: 'x' }, false],
  ['app=web,tier in (a,b),!legacy', { app: 'web', tier: 'a' }, true],
  ['app=web,tier in (a,b),!legacy', { app: 'web', tier: 'a', legacy: 'y' }, false],
  ['example.com/team=core', { 'example.com/team': 'core' }, true],
  ['app=', { app: '' }, true],
  ['replicas>2', { replicas: '3' }, true],
  ['replicas>2', { replicas: '2' }, false],
  ['replicas<2', { replicas: '-1' }, true],
  ['replicas<2', { replicas: 'many' }, false],
  ['replicas<2', {}, false],
];

test('matching, table-driven (equality- and set-based)', (t) => {
  for (const [selector, labels, expected] of matrix) {
    t.is(matchesLabels(parseLabelSelector(selector), labels), expected, `${selector} on ${JSON.stringify(labels)}`);
  }
});

test('label keys on the prototype do not match', (t) => {
  t.false(matchesLabels(parseLabelSelector('constructor'), {}));
  t.false(matchesLabels(parseLabelSelector('toString=x'), {}));
  t.true(matchesLabels(parseLabelSelector('!constructor'), {}));
});

test('invalid selectors name what is wrong', (t) => {
  const bad: [string, RegExp][] = [
    ['app=web,', /empty requirement/],
    ['tier in (a,b', /unbalanced "\("/],
    ['tier in a,b)', /unbalanced "\)"/],
    ['-bad=x', /invalid label key "-bad"/],
    ['app=we b', /invalid label key|invalid label value/],
    ['app=' + 'x'.repeat(64), /invalid label value/],
    ['replicas>x', /must be an integer/],
  ];
  for (const [selector, message] of bad) {
    const error = t.throws(() => parseLabelSelector(selector), { instanceOf: LabelSelectorError }, selector);
    t.regex(error!.message, message, selector);
    t.true(error!.message.startsWith('[informer] invalid label selector'), selector);
  }
});

test('structured selectors: matchLabels and matchExpressions', (t) => {
  const selector = parseLabelSelector({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }, { key: 'old', operator: 'DoesNotExist', values: [] }] });
  t.true(matchesLabels(selector, { app: 'web', tier: 'a' }));
  t.false(matchesLabels(selector, { app: 'web', tier: 'a', old: '1' }));
  t.throws(() => parseLabelSelector({ matchExpressions: [{ key: 'x', operator: 'Nope' as 'In', values: [] }] }), { instanceOf: LabelSelectorError, message: /unknown operator "Nope"/ });
  t.throws(() => parseLabelSelector({ matchExpressions: [{ key: 'x', operator: 'In', values: [] }] }), { instanceOf: LabelSelectorError, message: /needs values/ });
});
