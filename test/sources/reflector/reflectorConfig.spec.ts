import test from 'ava';
import { asyncScheduler } from 'rxjs';
import { resolveBackoffConfig, resolveReflectorConfig } from '../../../src/sources/reflector/reflectorConfig.js';

test('defaults: pageSize 500 (not explicit), any, no streaming, idleTimeout 150 s, transient, R10 backoff, asyncScheduler', (t) => {
  const config = resolveReflectorConfig({});
  t.like(config, {
    pageSize: 500,
    pageSizeExplicit: false,
    listSemantic: 'any',
    streamingList: false,
    idleTimeout: 150_000,
    fatalErrors: 'transient',
    backoff: { initialDelay: 800, maxDelay: 30_000, factor: 2, jitter: 1, resetAfter: 120_000 },
    transform: undefined,
    onStatus: undefined,
    signal: undefined,
  });
  t.is(config.scheduler, asyncScheduler);
  t.is(config.backoff.random, Math.random);
});

test('R5: timeoutSeconds is drawn per watch as an integer in [300, 600), or is the configured value', (t) => {
  const drawn = resolveReflectorConfig({});
  const values = Array.from({ length: 200 }, () => drawn.timeoutSeconds());
  t.true(values.every((s) => Number.isInteger(s) && s >= 300 && s < 600));
  t.true(new Set(values).size > 1);
  t.is(resolveReflectorConfig({ timeoutSeconds: 42 }).timeoutSeconds(), 42);
});

test('R2: a pageSize given by the caller counts as explicit, even 500', (t) => {
  t.like(resolveReflectorConfig({ pageSize: 500 }), { pageSize: 500, pageSizeExplicit: true });
  t.like(resolveReflectorConfig({ pageSize: 7 }), { pageSize: 7, pageSizeExplicit: true });
});

test('bad values are a TypeError naming the option', (t) => {
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{ pageSize: 0 }, /pageSize/],
    [{ pageSize: 1.5 }, /pageSize/],
    [{ timeoutSeconds: -1 }, /timeoutSeconds/],
    [{ idleTimeout: 0 }, /idleTimeout/],
    [{ fatalErrors: 'sometimes' }, /fatalErrors/],
    [{ listSemantic: 'latest' }, /listSemantic/],
    [{ transform: 'x' }, /transform/],
    [{ onStatus: 1 }, /onStatus/],
    [{ backoff: { initialDelay: -1 } }, /backoff\.initialDelay/],
    [{ backoff: { factor: Number.NaN } }, /backoff\.factor/],
  ];
  for (const [config, message] of bad) t.throws(() => resolveReflectorConfig(config as never), { instanceOf: TypeError, message });
  t.throws(() => resolveReflectorConfig(null as never), { instanceOf: TypeError, message: /options must be an object/ });
  t.throws(() => resolveBackoffConfig({ maxDelay: Number.POSITIVE_INFINITY }), { instanceOf: TypeError });
});
