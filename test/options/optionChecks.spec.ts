import test from 'ava';
import { optionChecks } from '../../src/options/optionChecks.js';

const checks = optionChecks('factory', {});

test('undefined passes every check (the default applies) and a good value is returned as given', (t) => {
  t.is(checks.positiveInteger('n', undefined), undefined);
  t.is(checks.positiveInteger('n', 3), 3);
  t.is(checks.positive('ms', 0.5), 0.5);
  t.is(checks.nonNegative('ms', 0), 0);
  t.is(checks.oneOf('mode', 'b', ['a', 'b']), 'b');
  const f = (): number => 1;
  t.is(checks.func('hook', f), f);
  t.is(checks.nonEmptyString('name', 'x'), 'x');
  t.is(checks.boolean('flag', false), false);
});

test('one wording: factory, option, rule and the value given', (t) => {
  const cases: Array<[() => unknown, string]> = [
    [() => checks.positiveInteger('pageSize', 0), '[factory] pageSize must be a positive integer, got 0'],
    [() => checks.positiveInteger('pageSize', 1.5), '[factory] pageSize must be a positive integer, got 1.5'],
    [() => checks.positiveInteger('pageSize', '2'), '[factory] pageSize must be a positive integer, got "2"'],
    [() => checks.positive('retryPeriodMs', 0), '[factory] retryPeriodMs must be a finite number > 0, got 0'],
    [() => checks.positive('retryPeriodMs', Infinity), '[factory] retryPeriodMs must be a finite number > 0, got Infinity'],
    [() => checks.nonNegative('graceMs', -1), '[factory] graceMs must be a finite number >= 0, got -1'],
    [() => checks.nonNegative('graceMs', NaN), '[factory] graceMs must be a finite number >= 0, got NaN'],
    [() => checks.oneOf('mode', 'c', ['a', 'b']), "[factory] mode must be 'a' or 'b', got \"c\""],
    [() => checks.func('hook', 1 as never), '[factory] hook must be a function, got 1'],
    [() => checks.nonEmptyString('name', ''), '[factory] name must be a non-empty string, got ""'],
    [() => checks.boolean('flag', 'yes'), '[factory] flag must be a boolean, got "yes"'],
    [() => checks.fail('leaseDurationMs must be greater than renewDeadlineMs'), '[factory] leaseDurationMs must be greater than renewDeadlineMs'],
  ];
  for (const [call, message] of cases) t.is(t.throws(call, { instanceOf: TypeError })?.message, message);
});

test('the options themselves must be an object; undefined only where they are optional', (t) => {
  t.notThrows(() => optionChecks('f', undefined));
  t.is(t.throws(() => optionChecks('f', undefined, false), { instanceOf: TypeError })?.message, '[f] the options must be an object, got undefined');
  t.is(t.throws(() => optionChecks('f', null), { instanceOf: TypeError })?.message, '[f] the options must be an object, got null');
  t.is(t.throws(() => optionChecks('f', 5), { instanceOf: TypeError })?.message, '[f] the options must be an object, got 5');
});
