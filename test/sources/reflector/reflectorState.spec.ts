/**
 * The reflector's transition (`reflectorStep`), table-tested: every error class in every phase,
 * then the paths without errors, then the invariants of the effect lists. Each phase is reached
 * from `idle` by feeding inputs, so every state in the table is one the machine really gets to.
 *
 * How to read a row: `[phase, error, next, memory]`.
 * - `next` lists the effects in order: `ERROR(x)` (x: the HTTP code, or the TransportError reason,
 *   or `transform`), `RELISTING(reason)`, `START` (a `LIST_START`), `LIST …` / `WATCH …` /
 *   `STREAM …` (a request; `STREAM` is a streaming-list watch), `BACKOFF(next[,slow][,N ms])`,
 *   `FAIL`. After a backoff, `→` shows what the `backoffElapsed` input then does. `LISTING`
 *   statuses are left out of the row and checked by the invariants below instead.
 * - `memory` is client-go's reflector memory right after the step: `lastSyncRV`, then
 *   `unavailable` (isLastSyncResourceVersionUnavailable) and `paginated` (paginatedResult) if set.
 */
import test from 'ava';
import { lineTooLongError, malformedLineError, stalledError, TransformError, TransportError, KubeApiError } from '../../../src/errors.js';
import type { ListRequest, WatchRequest } from '../../../src/sources/listerWatcher.js';
import { resolveReflectorConfig, type ResolvedReflectorConfig } from '../../../src/sources/reflector/reflectorConfig.js';
import { initialMemory, type ReflectorEffect, type ReflectorInput, type ReflectorMemory, type ReflectorState, type WatchEnded } from '../../../src/sources/reflector/reflectorState.js';
import { reflectorStep as step_ } from '../../../src/sources/reflector/reflectorStep.js';
import type { KubeObject } from '../../../src/store/kubeObject.js';
import { apiError, cm } from '../fakeListerWatcher.js';

type Config = ResolvedReflectorConfig<KubeObject>;
type Input = ReflectorInput<KubeObject>;
type Effect = ReflectorEffect<KubeObject>;
const reflectorStep = (state: ReflectorState, input: Input, config: Config) => step_<KubeObject>(state, input, config);

const configFor = (streaming: boolean, fatal: boolean | 'never'): Config =>
  resolveReflectorConfig<KubeObject>({ timeoutSeconds: 400, streamingList: streaming, ...(fatal ? { fatalErrors: fatal === 'never' ? 'never' : 'permanent' } : {}) });

/* ---------------------------------------------------------------- inputs */

const start: Input = { type: 'start' };
const opened: Input = { type: 'opened' };
const elapsed: Input = { type: 'backoffElapsed' };
const page = (resourceVersion: string, cont?: string): Input => ({
  type: 'page',
  response: cont === undefined ? { items: [cm('a', '1')], resourceVersion } : { items: [cm('a', '1')], resourceVersion, continue: cont },
});
const listFailed = (error: unknown): Input => ({ type: 'listFailed', error });
const initialEventsEnd = (resourceVersion: string, items: KubeObject[] = []): Input => ({ type: 'initialEventsEnd', resourceVersion, items });
const watchEnded = (error: unknown, end: Omit<WatchEnded, 'type' | 'error'>): Input => ({ type: 'watchEnded', error, ...end });
const atOnce = { opened: true, events: 1, durationMs: 5000 };

/* ---------------------------------------------------------------- phases */

interface Phase {
  readonly streaming: boolean;
  /** Inputs that lead from `idle` to the phase. */
  readonly path: readonly Input[];
  /** For a watch phase: how the watch had gone when it ended (the error classes may override it). */
  readonly watch?: Omit<WatchEnded, 'type' | 'error'>;
}

const phases = {
  /** First LIST of a subscription, client-go mode: RV "0", limit 500 (R1). */
  'list "0"': { streaming: false, path: [start] },
  /** The retry at once after a 410 on the first LIST: RV "", limit 500 (R3). */
  'list ""': { streaming: false, path: [start, listFailed(apiError('list', 410, 'Expired'))] },
  /** A relist after a failed watch: RV = lastSyncRV "10", no limit (R2). */
  'relist "10"': { streaming: false, path: [start, page('10'), watchEnded(apiError('watch', 500), { ...atOnce, resourceVersion: '10' }), elapsed] },
  /** The second page of the first list: `continue` and limit, no RV (R1). */
  'continue': { streaming: false, path: [start, page('10', 'c1')] },
  /** The one full list after a 410 on a continue page: RV "0", no limit (R3). */
  'full retry': { streaming: false, path: [start, page('10', 'c1'), listFailed(apiError('list', 410, 'Expired'))] },
  /** A watch from "10" that ended before the server accepted it. */
  'watch open': { streaming: false, path: [start, page('10')], watch: { opened: false, events: 0, durationMs: 30, resourceVersion: '10' } },
  /** A watch from "10" that opened, delivered 3 events (last RV "15") and ran 5 s. */
  'in stream': { streaming: false, path: [start, page('10'), opened], watch: { opened: true, events: 3, durationMs: 5000, resourceVersion: '15' } },
  /** A streaming list from "10" (after a failed watch) that ended before the server accepted it. */
  'stream open': {
    streaming: true,
    path: [start, opened, initialEventsEnd('10'), watchEnded(apiError('watch', 500), { ...atOnce, resourceVersion: '10' }), elapsed],
    watch: { opened: false, events: 0, durationMs: 30, resourceVersion: '10' },
  },
  /** The same streaming list opened and sent 2 initial events in 3 s, but not the end bookmark. */
  'stream initial': {
    streaming: true,
    path: [start, opened, initialEventsEnd('10'), watchEnded(apiError('watch', 500), { ...atOnce, resourceVersion: '10' }), elapsed, opened],
    watch: { opened: true, events: 2, durationMs: 3000, resourceVersion: '10' },
  },
  /** A streaming list past its end bookmark at "20": the same stream as a watch; last RV "22" (R11). */
  'stream watching': {
    streaming: true,
    path: [start, opened, initialEventsEnd('20', [cm('a', '19')])],
    watch: { opened: true, events: 5, durationMs: 4000, resourceVersion: '22' },
  },
} satisfies Record<string, Phase>;
type PhaseName = keyof typeof phases;

/* ---------------------------------------------------------------- error classes */

interface ErrorClass {
  /** `undefined`: the server closed the watch. */
  readonly error: unknown;
  /** Run with `fatalErrors: 'permanent'` (true) or `'never'`. */
  readonly fatal?: boolean | 'never';
  /** How the watch went, instead of the phase's. */
  readonly watch?: { readonly events: number; readonly durationMs: number };
}

const tooLargeMessage = { message: 'Too large resource version: 12, current: 10' };
const tooLargeCause = { details: { causes: [{ reason: 'ResourceVersionTooLarge' }] } };
const errorClasses = {
  '410 Expired': { error: apiError('list', 410, 'Expired') },
  '410 Gone': { error: apiError('list', 410, 'Gone') },
  '410 no reason': { error: apiError('list', 410) },
  '504 too large': { error: apiError('list', 504, 'Timeout', tooLargeMessage) },
  'cause too large': { error: apiError('list', 504, 'Timeout', tooLargeCause) },
  '429': { error: apiError('list', 429, 'TooManyRequests') },
  '429 Retry-After': { error: apiError('list', 429, 'TooManyRequests', { details: { retryAfterSeconds: 7 } }) },
  '500': { error: apiError('list', 500, 'InternalError') },
  '401': { error: apiError('list', 401, 'Unauthorized') },
  '403': { error: apiError('list', 403, 'Forbidden') },
  '403 fatal': { error: apiError('list', 403, 'Forbidden'), fatal: true },
  '404': { error: apiError('list', 404, 'NotFound') },
  '404 fatal': { error: apiError('list', 404, 'NotFound'), fatal: true },
  // An invalid request (a selector that does not parse, a bad combination of list options) cannot
  // succeed however often it is retried: fatal by default; `fatalErrors: 'never'` retries it slowly.
  '400': { error: apiError('list', 400, 'BadRequest') },
  '422': { error: apiError('list', 422, 'Invalid') },
  '400 never': { error: apiError('list', 400, 'BadRequest'), fatal: 'never' },
  'ECONNREFUSED': { error: new TransportError('watch', 'connect ECONNREFUSED 127.0.0.1:1', { code: 'ECONNREFUSED' }) },
  'ECONNRESET': { error: new TransportError('watch', 'socket hang up', { code: 'ECONNRESET' }) },
  'stalled': { error: stalledError('watch', 150_000) },
  'very short': { error: undefined, watch: { events: 0, durationMs: 300 } },
  'malformedLine': { error: malformedLineError('{"type":') },
  'lineTooLong': { error: lineTooLongError(1024) },
  'TransformError': { error: new TransformError({ cause: new Error('boom') }) },
  'clean close': { error: undefined },
} satisfies Record<string, ErrorClass>;
type ErrorName = keyof typeof errorClasses;

/* ---------------------------------------------------------------- the table */

// Requests, as the rows name them.
const L0 = 'LIST rv="0" limit=500';
const LE = 'LIST rv="" limit=500';
const L10 = 'LIST rv="10"';
const L15 = 'LIST rv="15"';
const F0 = 'LIST rv="0"';
const W10 = 'WATCH rv="10"';
const W15 = 'WATCH rv="15"';
const W22 = 'WATCH rv="22"';
const S10 = 'STREAM rv="10"';
const SE = 'STREAM rv=""';
const S22 = 'STREAM rv="22"';

type Row = readonly [PhaseName, ErrorName, string, string];

// prettier-ignore
const rows: readonly Row[] = [
  // phase           error               next                                                                      memory after
  ['list "0"',       '410 Expired',      `ERROR(410) RELISTING(expired) START ${LE}`,                               '"" unavailable'],
  ['list "0"',       '410 Gone',         `ERROR(410) RELISTING(expired) START ${LE}`,                               '"" unavailable'],
  ['list "0"',       '410 no reason',    `ERROR(410) RELISTING(expired) START ${LE}`,                               '"" unavailable'],
  ['list "0"',       '504 too large',    `ERROR(504) RELISTING(tooLargeResourceVersion) START ${LE}`,               '"" unavailable'],
  ['list "0"',       'cause too large',  `ERROR(504) RELISTING(tooLargeResourceVersion) START ${LE}`,               '"" unavailable'],
  ['list "0"',       '429',              `ERROR(429) BACKOFF(relist) → RELISTING(listError) START ${L0}`,           '""'],
  ['list "0"',       '429 Retry-After',  `ERROR(429) BACKOFF(relist,7000ms) → RELISTING(listError) START ${L0}`,    '""'],
  ['list "0"',       '500',              `ERROR(500) BACKOFF(relist) → RELISTING(listError) START ${L0}`,           '""'],
  ['list "0"',       '401',              `ERROR(401) BACKOFF(relist) → RELISTING(listError) START ${L0}`,           '""'],
  ['list "0"',       '403',              `ERROR(403) BACKOFF(relist,slow) → RELISTING(listError) START ${L0}`,      '""'],
  ['list "0"',       '403 fatal',        'ERROR(403) FAILED FAIL',                                                  '""'],
  ['list "0"',       '404',              `ERROR(404) BACKOFF(relist,slow) → RELISTING(listError) START ${L0}`,      '""'],
  ['list "0"',       '404 fatal',        'ERROR(404) FAILED FAIL',                                                  '""'],
  ['list "0"',       '400',              'ERROR(400) FAILED FAIL',                                                  '""'],
  ['list "0"',       '422',              'ERROR(422) FAILED FAIL',                                                  '""'],
  ['list "0"',       '400 never',        `ERROR(400) BACKOFF(relist,slow) → RELISTING(listError) START ${L0}`,      '""'],
  ['list "0"',       'ECONNREFUSED',     `ERROR(network) BACKOFF(relist) → RELISTING(listError) START ${L0}`,       '""'],
  ['list "0"',       'ECONNRESET',       `ERROR(network) BACKOFF(relist) → RELISTING(listError) START ${L0}`,       '""'],
  ['list "0"',       'stalled',          `ERROR(stalled) BACKOFF(relist) → RELISTING(listError) START ${L0}`,       '""'],
  ['list "0"',       'malformedLine',    `ERROR(malformedLine) BACKOFF(relist) → RELISTING(listError) START ${L0}`, '""'],
  ['list "0"',       'lineTooLong',      `ERROR(lineTooLong) BACKOFF(relist) → RELISTING(listError) START ${L0}`,   '""'],
  ['list "0"',       'TransformError',   `ERROR(transform) BACKOFF(relist) → RELISTING(listError) START ${L0}`,     '""'],

  // R3: the immediate retry is at RV "" already, so a 410 here goes the R8 way.
  ['list ""',        '410 Expired',      `ERROR(410) BACKOFF(relist) → RELISTING(listError) START ${LE}`,           '"" unavailable'],
  ['list ""',        '410 Gone',         `ERROR(410) BACKOFF(relist) → RELISTING(listError) START ${LE}`,           '"" unavailable'],
  ['list ""',        '410 no reason',    `ERROR(410) BACKOFF(relist) → RELISTING(listError) START ${LE}`,           '"" unavailable'],
  ['list ""',        '504 too large',    `ERROR(504) BACKOFF(relist) → RELISTING(listError) START ${LE}`,           '"" unavailable'],
  ['list ""',        'cause too large',  `ERROR(504) BACKOFF(relist) → RELISTING(listError) START ${LE}`,           '"" unavailable'],
  ['list ""',        '429',              `ERROR(429) BACKOFF(relist) → RELISTING(listError) START ${LE}`,           '"" unavailable'],
  ['list ""',        '429 Retry-After',  `ERROR(429) BACKOFF(relist,7000ms) → RELISTING(listError) START ${LE}`,    '"" unavailable'],
  ['list ""',        '500',              `ERROR(500) BACKOFF(relist) → RELISTING(listError) START ${LE}`,           '"" unavailable'],
  ['list ""',        '401',              `ERROR(401) BACKOFF(relist) → RELISTING(listError) START ${LE}`,           '"" unavailable'],
  ['list ""',        '403',              `ERROR(403) BACKOFF(relist,slow) → RELISTING(listError) START ${LE}`,      '"" unavailable'],
  ['list ""',        '403 fatal',        'ERROR(403) FAILED FAIL',                                                  '"" unavailable'],
  ['list ""',        '404',              `ERROR(404) BACKOFF(relist,slow) → RELISTING(listError) START ${LE}`,      '"" unavailable'],
  ['list ""',        '404 fatal',        'ERROR(404) FAILED FAIL',                                                  '"" unavailable'],
  ['list ""',        '400',              'ERROR(400) FAILED FAIL',                                                  '"" unavailable'],
  ['list ""',        '422',              'ERROR(422) FAILED FAIL',                                                  '"" unavailable'],
  ['list ""',        '400 never',        `ERROR(400) BACKOFF(relist,slow) → RELISTING(listError) START ${LE}`,      '"" unavailable'],
  ['list ""',        'ECONNREFUSED',     `ERROR(network) BACKOFF(relist) → RELISTING(listError) START ${LE}`,       '"" unavailable'],
  ['list ""',        'ECONNRESET',       `ERROR(network) BACKOFF(relist) → RELISTING(listError) START ${LE}`,       '"" unavailable'],
  ['list ""',        'stalled',          `ERROR(stalled) BACKOFF(relist) → RELISTING(listError) START ${LE}`,       '"" unavailable'],
  ['list ""',        'malformedLine',    `ERROR(malformedLine) BACKOFF(relist) → RELISTING(listError) START ${LE}`, '"" unavailable'],
  ['list ""',        'lineTooLong',      `ERROR(lineTooLong) BACKOFF(relist) → RELISTING(listError) START ${LE}`,   '"" unavailable'],
  ['list ""',        'TransformError',   `ERROR(transform) BACKOFF(relist) → RELISTING(listError) START ${LE}`,     '"" unavailable'],

  ['relist "10"',    '410 Expired',      `ERROR(410) RELISTING(expired) START ${LE}`,                               '"10" unavailable'],
  ['relist "10"',    '410 Gone',         `ERROR(410) RELISTING(expired) START ${LE}`,                               '"10" unavailable'],
  ['relist "10"',    '410 no reason',    `ERROR(410) RELISTING(expired) START ${LE}`,                               '"10" unavailable'],
  ['relist "10"',    '504 too large',    `ERROR(504) RELISTING(tooLargeResourceVersion) START ${LE}`,               '"10" unavailable'],
  ['relist "10"',    'cause too large',  `ERROR(504) RELISTING(tooLargeResourceVersion) START ${LE}`,               '"10" unavailable'],
  ['relist "10"',    '429',              `ERROR(429) BACKOFF(relist) → RELISTING(listError) START ${L10}`,          '"10"'],
  ['relist "10"',    '429 Retry-After',  `ERROR(429) BACKOFF(relist,7000ms) → RELISTING(listError) START ${L10}`,   '"10"'],
  ['relist "10"',    '500',              `ERROR(500) BACKOFF(relist) → RELISTING(listError) START ${L10}`,          '"10"'],
  ['relist "10"',    '401',              `ERROR(401) BACKOFF(relist) → RELISTING(listError) START ${L10}`,          '"10"'],
  ['relist "10"',    '403',              `ERROR(403) BACKOFF(relist,slow) → RELISTING(listError) START ${L10}`,     '"10"'],
  ['relist "10"',    '403 fatal',        'ERROR(403) FAILED FAIL',                                                  '"10"'],
  ['relist "10"',    '404',              `ERROR(404) BACKOFF(relist,slow) → RELISTING(listError) START ${L10}`,     '"10"'],
  ['relist "10"',    '404 fatal',        'ERROR(404) FAILED FAIL',                                                  '"10"'],
  ['relist "10"',    '400',              'ERROR(400) FAILED FAIL',                                                  '"10"'],
  ['relist "10"',    '422',              'ERROR(422) FAILED FAIL',                                                  '"10"'],
  ['relist "10"',    '400 never',        `ERROR(400) BACKOFF(relist,slow) → RELISTING(listError) START ${L10}`,     '"10"'],
  ['relist "10"',    'ECONNREFUSED',     `ERROR(network) BACKOFF(relist) → RELISTING(listError) START ${L10}`,      '"10"'],
  ['relist "10"',    'ECONNRESET',       `ERROR(network) BACKOFF(relist) → RELISTING(listError) START ${L10}`,      '"10"'],
  ['relist "10"',    'stalled',          `ERROR(stalled) BACKOFF(relist) → RELISTING(listError) START ${L10}`,      '"10"'],
  ['relist "10"',    'malformedLine',    `ERROR(malformedLine) BACKOFF(relist) → RELISTING(listError) START ${L10}`, '"10"'],
  ['relist "10"',    'lineTooLong',      `ERROR(lineTooLong) BACKOFF(relist) → RELISTING(listError) START ${L10}`,  '"10"'],
  ['relist "10"',    'TransformError',   `ERROR(transform) BACKOFF(relist) → RELISTING(listError) START ${L10}`,    '"10"'],

  // R3: a 410 on a continue page is one full list at the original RV; a too-large RV is not a 410.
  ['continue',       '410 Expired',      `ERROR(410) RELISTING(expiredContinue) START ${F0}`,                       '""'],
  ['continue',       '410 Gone',         `ERROR(410) RELISTING(expiredContinue) START ${F0}`,                       '""'],
  ['continue',       '410 no reason',    `ERROR(410) RELISTING(expiredContinue) START ${F0}`,                       '""'],
  ['continue',       '504 too large',    `ERROR(504) RELISTING(tooLargeResourceVersion) START ${LE}`,               '"" unavailable'],
  ['continue',       'cause too large',  `ERROR(504) RELISTING(tooLargeResourceVersion) START ${LE}`,               '"" unavailable'],
  ['continue',       '429',              `ERROR(429) BACKOFF(relist) → RELISTING(listError) START ${L0}`,           '""'],
  ['continue',       '429 Retry-After',  `ERROR(429) BACKOFF(relist,7000ms) → RELISTING(listError) START ${L0}`,    '""'],
  ['continue',       '500',              `ERROR(500) BACKOFF(relist) → RELISTING(listError) START ${L0}`,           '""'],
  ['continue',       '401',              `ERROR(401) BACKOFF(relist) → RELISTING(listError) START ${L0}`,           '""'],
  ['continue',       '403',              `ERROR(403) BACKOFF(relist,slow) → RELISTING(listError) START ${L0}`,      '""'],
  ['continue',       '403 fatal',        'ERROR(403) FAILED FAIL',                                                  '""'],
  ['continue',       '404',              `ERROR(404) BACKOFF(relist,slow) → RELISTING(listError) START ${L0}`,      '""'],
  ['continue',       '404 fatal',        'ERROR(404) FAILED FAIL',                                                  '""'],
  ['continue',       '400',              'ERROR(400) FAILED FAIL',                                                  '""'],
  ['continue',       '422',              'ERROR(422) FAILED FAIL',                                                  '""'],
  ['continue',       '400 never',        `ERROR(400) BACKOFF(relist,slow) → RELISTING(listError) START ${L0}`,      '""'],
  ['continue',       'ECONNREFUSED',     `ERROR(network) BACKOFF(relist) → RELISTING(listError) START ${L0}`,       '""'],
  ['continue',       'ECONNRESET',       `ERROR(network) BACKOFF(relist) → RELISTING(listError) START ${L0}`,       '""'],
  ['continue',       'stalled',          `ERROR(stalled) BACKOFF(relist) → RELISTING(listError) START ${L0}`,       '""'],
  ['continue',       'malformedLine',    `ERROR(malformedLine) BACKOFF(relist) → RELISTING(listError) START ${L0}`, '""'],
  ['continue',       'lineTooLong',      `ERROR(lineTooLong) BACKOFF(relist) → RELISTING(listError) START ${L0}`,   '""'],
  ['continue',       'TransformError',   `ERROR(transform) BACKOFF(relist) → RELISTING(listError) START ${L0}`,     '""'],

  // The full retry is not retried that way again: a 410 now marks the RV unavailable (R3).
  ['full retry',     '410 Expired',      `ERROR(410) RELISTING(expired) START ${LE}`,                               '"" unavailable'],
  ['full retry',     '410 Gone',         `ERROR(410) RELISTING(expired) START ${LE}`,                               '"" unavailable'],
  ['full retry',     '410 no reason',    `ERROR(410) RELISTING(expired) START ${LE}`,                               '"" unavailable'],
  ['full retry',     '504 too large',    `ERROR(504) RELISTING(tooLargeResourceVersion) START ${LE}`,               '"" unavailable'],
  ['full retry',     'cause too large',  `ERROR(504) RELISTING(tooLargeResourceVersion) START ${LE}`,               '"" unavailable'],
  ['full retry',     '429',              `ERROR(429) BACKOFF(relist) → RELISTING(listError) START ${L0}`,           '""'],
  ['full retry',     '429 Retry-After',  `ERROR(429) BACKOFF(relist,7000ms) → RELISTING(listError) START ${L0}`,    '""'],
  ['full retry',     '500',              `ERROR(500) BACKOFF(relist) → RELISTING(listError) START ${L0}`,           '""'],
  ['full retry',     '401',              `ERROR(401) BACKOFF(relist) → RELISTING(listError) START ${L0}`,           '""'],
  ['full retry',     '403',              `ERROR(403) BACKOFF(relist,slow) → RELISTING(listError) START ${L0}`,      '""'],
  ['full retry',     '403 fatal',        'ERROR(403) FAILED FAIL',                                                  '""'],
  ['full retry',     '404',              `ERROR(404) BACKOFF(relist,slow) → RELISTING(listError) START ${L0}`,      '""'],
  ['full retry',     '404 fatal',        'ERROR(404) FAILED FAIL',                                                  '""'],
  ['full retry',     '400',              'ERROR(400) FAILED FAIL',                                                  '""'],
  ['full retry',     '422',              'ERROR(422) FAILED FAIL',                                                  '""'],
  ['full retry',     '400 never',        `ERROR(400) BACKOFF(relist,slow) → RELISTING(listError) START ${L0}`,      '""'],
  ['full retry',     'ECONNREFUSED',     `ERROR(network) BACKOFF(relist) → RELISTING(listError) START ${L0}`,       '""'],
  ['full retry',     'ECONNRESET',       `ERROR(network) BACKOFF(relist) → RELISTING(listError) START ${L0}`,       '""'],
  ['full retry',     'stalled',          `ERROR(stalled) BACKOFF(relist) → RELISTING(listError) START ${L0}`,       '""'],
  ['full retry',     'malformedLine',    `ERROR(malformedLine) BACKOFF(relist) → RELISTING(listError) START ${L0}`, '""'],
  ['full retry',     'lineTooLong',      `ERROR(lineTooLong) BACKOFF(relist) → RELISTING(listError) START ${L0}`,   '""'],
  ['full retry',     'TransformError',   `ERROR(transform) BACKOFF(relist) → RELISTING(listError) START ${L0}`,     '""'],

  // R8/R9 on open: 410 is expired, 429 and refused re-watch, a reset before OPEN is no clean close.
  ['watch open',     '410 Expired',      `ERROR(410) BACKOFF(relist) → RELISTING(expired) START ${L10}`,            '"10"'],
  ['watch open',     '410 Gone',         `ERROR(410) BACKOFF(relist) → RELISTING(expired) START ${L10}`,            '"10"'],
  ['watch open',     '410 no reason',    `ERROR(410) BACKOFF(relist) → RELISTING(expired) START ${L10}`,            '"10"'],
  ['watch open',     '504 too large',    `ERROR(504) BACKOFF(relist) → RELISTING(watchError) START ${L10}`,         '"10"'],
  ['watch open',     'cause too large',  `ERROR(504) BACKOFF(relist) → RELISTING(watchError) START ${L10}`,         '"10"'],
  ['watch open',     '429',              `ERROR(429) BACKOFF(rewatch) → ${W10}`,                                    '"10"'],
  ['watch open',     '429 Retry-After',  `ERROR(429) BACKOFF(rewatch,7000ms) → ${W10}`,                             '"10"'],
  ['watch open',     '500',              `ERROR(500) BACKOFF(relist) → RELISTING(watchError) START ${L10}`,         '"10"'],
  ['watch open',     '401',              `ERROR(401) BACKOFF(relist) → RELISTING(watchError) START ${L10}`,         '"10"'],
  ['watch open',     '403',              `ERROR(403) BACKOFF(relist,slow) → RELISTING(watchError) START ${L10}`,    '"10"'],
  ['watch open',     '403 fatal',        'ERROR(403) FAILED FAIL',                                                  '"10"'],
  ['watch open',     '404',              `ERROR(404) BACKOFF(relist,slow) → RELISTING(watchError) START ${L10}`,    '"10"'],
  ['watch open',     '404 fatal',        'ERROR(404) FAILED FAIL',                                                  '"10"'],
  ['watch open',     '400',              'ERROR(400) FAILED FAIL',                                                  '"10"'],
  ['watch open',     '422',              'ERROR(422) FAILED FAIL',                                                  '"10"'],
  ['watch open',     '400 never',        `ERROR(400) BACKOFF(relist,slow) → RELISTING(watchError) START ${L10}`,    '"10"'],
  ['watch open',     'ECONNREFUSED',     `ERROR(network) BACKOFF(rewatch) → ${W10}`,                                '"10"'],
  ['watch open',     'ECONNRESET',       `ERROR(network) BACKOFF(relist) → RELISTING(watchError) START ${L10}`,     '"10"'],
  ['watch open',     'stalled',          `ERROR(stalled) ${W10}`,                                                   '"10"'],
  ['watch open',     'very short',       `ERROR(veryShortWatch) BACKOFF(relist) → RELISTING(veryShortWatch) START ${L10}`, '"10"'],
  ['watch open',     'malformedLine',    `ERROR(malformedLine) BACKOFF(relist) → RELISTING(watchError) START ${L10}`, '"10"'],
  ['watch open',     'lineTooLong',      `ERROR(lineTooLong) BACKOFF(relist) → RELISTING(watchError) START ${L10}`, '"10"'],
  ['watch open',     'TransformError',   `ERROR(transform) BACKOFF(relist) → RELISTING(watchError) START ${L10}`,   '"10"'],
  ['watch open',     'clean close',      `ERROR(veryShortWatch) BACKOFF(relist) → RELISTING(veryShortWatch) START ${L10}`, '"10"'],

  // In stream: the events moved lastSyncRV to "15"; a reset after OPEN is a clean close (R7).
  ['in stream',      '410 Expired',      `ERROR(410) BACKOFF(relist) → RELISTING(expired) START ${L15}`,            '"15"'],
  ['in stream',      '410 Gone',         `ERROR(410) BACKOFF(relist) → RELISTING(expired) START ${L15}`,            '"15"'],
  ['in stream',      '410 no reason',    `ERROR(410) BACKOFF(relist) → RELISTING(expired) START ${L15}`,            '"15"'],
  ['in stream',      '504 too large',    `ERROR(504) BACKOFF(relist) → RELISTING(watchError) START ${L15}`,         '"15"'],
  ['in stream',      'cause too large',  `ERROR(504) BACKOFF(relist) → RELISTING(watchError) START ${L15}`,         '"15"'],
  ['in stream',      '429',              `ERROR(429) BACKOFF(rewatch) → ${W15}`,                                    '"15"'],
  ['in stream',      '429 Retry-After',  `ERROR(429) BACKOFF(rewatch,7000ms) → ${W15}`,                             '"15"'],
  ['in stream',      '500',              `ERROR(500) BACKOFF(relist) → RELISTING(watchError) START ${L15}`,         '"15"'],
  ['in stream',      '401',              `ERROR(401) BACKOFF(relist) → RELISTING(watchError) START ${L15}`,         '"15"'],
  ['in stream',      '403',              `ERROR(403) BACKOFF(relist,slow) → RELISTING(watchError) START ${L15}`,    '"15"'],
  ['in stream',      '403 fatal',        'ERROR(403) FAILED FAIL',                                                  '"15"'],
  ['in stream',      '404',              `ERROR(404) BACKOFF(relist,slow) → RELISTING(watchError) START ${L15}`,    '"15"'],
  ['in stream',      '404 fatal',        'ERROR(404) FAILED FAIL',                                                  '"15"'],
  ['in stream',      '400',              'ERROR(400) FAILED FAIL',                                                  '"15"'],
  ['in stream',      '422',              'ERROR(422) FAILED FAIL',                                                  '"15"'],
  ['in stream',      '400 never',        `ERROR(400) BACKOFF(relist,slow) → RELISTING(watchError) START ${L15}`,    '"15"'],
  ['in stream',      'ECONNREFUSED',     `ERROR(network) BACKOFF(rewatch) → ${W15}`,                                '"15"'],
  ['in stream',      'ECONNRESET',       `ERROR(network) ${W15}`,                                                   '"15"'],
  ['in stream',      'stalled',          `ERROR(stalled) ${W15}`,                                                   '"15"'],
  ['in stream',      'very short',       `ERROR(veryShortWatch) BACKOFF(relist) → RELISTING(veryShortWatch) START ${L10}`, '"10"'],
  ['in stream',      'malformedLine',    `ERROR(malformedLine) BACKOFF(relist) → RELISTING(watchError) START ${L15}`, '"15"'],
  ['in stream',      'lineTooLong',      `ERROR(lineTooLong) BACKOFF(relist) → RELISTING(watchError) START ${L15}`, '"15"'],
  ['in stream',      'TransformError',   `ERROR(transform) BACKOFF(relist) → RELISTING(watchError) START ${L15}`,   '"15"'],
  ['in stream',      'clean close',      W15,                                                                       '"15"'],

  // R11 before the bookmark: 410/too large retry at "" at once, 429/refused retry after a
  // backoff, a close retries at once, anything else falls back to LIST — 403/404 too, even fatal.
  ['stream open',    '410 Expired',      `ERROR(410) RELISTING(streamingRetry) START ${SE}`,                        '"10" unavailable'],
  ['stream open',    '410 Gone',         `ERROR(410) RELISTING(streamingRetry) START ${SE}`,                        '"10" unavailable'],
  ['stream open',    '410 no reason',    `ERROR(410) RELISTING(streamingRetry) START ${SE}`,                        '"10" unavailable'],
  ['stream open',    '504 too large',    `ERROR(504) RELISTING(streamingRetry) START ${SE}`,                        '"10" unavailable'],
  ['stream open',    'cause too large',  `ERROR(504) RELISTING(streamingRetry) START ${SE}`,                        '"10" unavailable'],
  ['stream open',    '429',              `ERROR(429) BACKOFF(relist) → RELISTING(streamingRetry) START ${S10}`,     '"10"'],
  ['stream open',    '429 Retry-After',  `ERROR(429) BACKOFF(relist,7000ms) → RELISTING(streamingRetry) START ${S10}`, '"10"'],
  ['stream open',    '500',              `ERROR(500) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream open',    '401',              `ERROR(401) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream open',    '403',              `ERROR(403) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream open',    '403 fatal',        `ERROR(403) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream open',    '404',              `ERROR(404) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream open',    '404 fatal',        `ERROR(404) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream open',    '400',              `ERROR(400) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream open',    '422',              `ERROR(422) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream open',    '400 never',        `ERROR(400) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream open',    'ECONNREFUSED',     `ERROR(network) BACKOFF(relist) → RELISTING(streamingRetry) START ${S10}`, '"10"'],
  ['stream open',    'ECONNRESET',       `ERROR(network) RELISTING(streamingFallback) START ${L10}`,                '"10"'],
  ['stream open',    'stalled',          `ERROR(stalled) RELISTING(streamingRetry) START ${S10}`,                   '"10"'],
  ['stream open',    'very short',       `ERROR(veryShortWatch) RELISTING(streamingFallback) START ${L10}`,         '"10"'],
  ['stream open',    'malformedLine',    `ERROR(malformedLine) RELISTING(streamingFallback) START ${L10}`,          '"10"'],
  ['stream open',    'lineTooLong',      `ERROR(lineTooLong) RELISTING(streamingFallback) START ${L10}`,            '"10"'],
  ['stream open',    'TransformError',   `ERROR(transform) BACKOFF(relist) → RELISTING(watchError) START ${S10}`,   '"10"'],
  ['stream open',    'clean close',      `ERROR(veryShortWatch) RELISTING(streamingFallback) START ${L10}`,         '"10"'],

  ['stream initial', '410 Expired',      `ERROR(410) RELISTING(streamingRetry) START ${SE}`,                        '"10" unavailable'],
  ['stream initial', '410 Gone',         `ERROR(410) RELISTING(streamingRetry) START ${SE}`,                        '"10" unavailable'],
  ['stream initial', '410 no reason',    `ERROR(410) RELISTING(streamingRetry) START ${SE}`,                        '"10" unavailable'],
  ['stream initial', '504 too large',    `ERROR(504) RELISTING(streamingRetry) START ${SE}`,                        '"10" unavailable'],
  ['stream initial', 'cause too large',  `ERROR(504) RELISTING(streamingRetry) START ${SE}`,                        '"10" unavailable'],
  ['stream initial', '429',              `ERROR(429) BACKOFF(relist) → RELISTING(streamingRetry) START ${S10}`,     '"10"'],
  ['stream initial', '429 Retry-After',  `ERROR(429) BACKOFF(relist,7000ms) → RELISTING(streamingRetry) START ${S10}`, '"10"'],
  ['stream initial', '500',              `ERROR(500) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream initial', '401',              `ERROR(401) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream initial', '403',              `ERROR(403) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream initial', '403 fatal',        `ERROR(403) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream initial', '404',              `ERROR(404) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream initial', '404 fatal',        `ERROR(404) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream initial', '400',              `ERROR(400) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream initial', '422',              `ERROR(422) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream initial', '400 never',        `ERROR(400) RELISTING(streamingFallback) START ${L10}`,                    '"10"'],
  ['stream initial', 'ECONNREFUSED',     `ERROR(network) BACKOFF(relist) → RELISTING(streamingRetry) START ${S10}`, '"10"'],
  ['stream initial', 'ECONNRESET',       `ERROR(network) RELISTING(streamingRetry) START ${S10}`,                   '"10"'],
  ['stream initial', 'stalled',          `ERROR(stalled) RELISTING(streamingRetry) START ${S10}`,                   '"10"'],
  ['stream initial', 'very short',       `ERROR(veryShortWatch) RELISTING(streamingFallback) START ${L10}`,         '"10"'],
  ['stream initial', 'malformedLine',    `ERROR(malformedLine) RELISTING(streamingFallback) START ${L10}`,          '"10"'],
  ['stream initial', 'lineTooLong',      `ERROR(lineTooLong) RELISTING(streamingFallback) START ${L10}`,            '"10"'],
  ['stream initial', 'TransformError',   `ERROR(transform) BACKOFF(relist) → RELISTING(watchError) START ${S10}`,   '"10"'],
  ['stream initial', 'clean close',      `RELISTING(streamingRetry) START ${S10}`,                                  '"10"'],

  // Past the bookmark the stream is a watch (R7–R9); a new cycle is a streaming list again.
  // ('very short' cannot happen here: the bookmark was an event.)
  ['stream watching', '410 Expired',     `ERROR(410) BACKOFF(relist) → RELISTING(expired) START ${S22}`,            '"22"'],
  ['stream watching', '410 Gone',        `ERROR(410) BACKOFF(relist) → RELISTING(expired) START ${S22}`,            '"22"'],
  ['stream watching', '410 no reason',   `ERROR(410) BACKOFF(relist) → RELISTING(expired) START ${S22}`,            '"22"'],
  ['stream watching', '504 too large',   `ERROR(504) BACKOFF(relist) → RELISTING(watchError) START ${S22}`,         '"22"'],
  ['stream watching', 'cause too large', `ERROR(504) BACKOFF(relist) → RELISTING(watchError) START ${S22}`,         '"22"'],
  ['stream watching', '429',             `ERROR(429) BACKOFF(rewatch) → ${W22}`,                                    '"22"'],
  ['stream watching', '429 Retry-After', `ERROR(429) BACKOFF(rewatch,7000ms) → ${W22}`,                             '"22"'],
  ['stream watching', '500',             `ERROR(500) BACKOFF(relist) → RELISTING(watchError) START ${S22}`,         '"22"'],
  ['stream watching', '401',             `ERROR(401) BACKOFF(relist) → RELISTING(watchError) START ${S22}`,         '"22"'],
  ['stream watching', '403',             `ERROR(403) BACKOFF(relist,slow) → RELISTING(watchError) START ${S22}`,    '"22"'],
  ['stream watching', '403 fatal',       'ERROR(403) FAILED FAIL',                                                  '"22"'],
  ['stream watching', '404',             `ERROR(404) BACKOFF(relist,slow) → RELISTING(watchError) START ${S22}`,    '"22"'],
  ['stream watching', '404 fatal',       'ERROR(404) FAILED FAIL',                                                  '"22"'],
  ['stream watching', '400',             'ERROR(400) FAILED FAIL',                                                  '"22"'],
  ['stream watching', '422',             'ERROR(422) FAILED FAIL',                                                  '"22"'],
  ['stream watching', '400 never',       `ERROR(400) BACKOFF(relist,slow) → RELISTING(watchError) START ${S22}`,    '"22"'],
  ['stream watching', 'ECONNREFUSED',    `ERROR(network) BACKOFF(rewatch) → ${W22}`,                                '"22"'],
  ['stream watching', 'ECONNRESET',      `ERROR(network) ${W22}`,                                                   '"22"'],
  ['stream watching', 'stalled',         `ERROR(stalled) ${W22}`,                                                   '"22"'],
  ['stream watching', 'malformedLine',   `ERROR(malformedLine) BACKOFF(relist) → RELISTING(watchError) START ${S22}`, '"22"'],
  ['stream watching', 'lineTooLong',     `ERROR(lineTooLong) BACKOFF(relist) → RELISTING(watchError) START ${S22}`, '"22"'],
  ['stream watching', 'TransformError',  `ERROR(transform) BACKOFF(relist) → RELISTING(watchError) START ${S22}`,   '"22"'],
  ['stream watching', 'clean close',     W22,                                                                       '"22"'],
];

/* ---------------------------------------------------------------- running a row */

function reach(phase: Phase, config: Config): ReflectorState {
  return phase.path.reduce<ReflectorState>((state, input) => reflectorStep(state, input, config).state, { kind: 'idle', memory: initialMemory });
}

function failure(phase: Phase, errorClass: ErrorClass): Input {
  if (!phase.watch) return listFailed(errorClass.error);
  const watch = errorClass.watch ? { ...phase.watch, ...errorClass.watch } : phase.watch;
  // No event, no move of lastSyncRV (R6): the watch ends where it started.
  const start = reach(phase, configFor(false, false)).memory.lastSyncRV;
  return watchEnded(errorClass.error, watch.events === 0 ? { ...watch, resourceVersion: start } : watch);
}

const request = (r: ListRequest | WatchRequest): string => {
  const parts = [
    r.resourceVersion === undefined ? '' : `rv=${JSON.stringify(r.resourceVersion)}`,
    'continue' in r && r.continue !== undefined ? `continue=${r.continue}` : '',
    'limit' in r && r.limit !== undefined ? `limit=${r.limit}` : '',
  ];
  return parts.filter(Boolean).join(' ');
};

function errorName(error: Error): string {
  if (error instanceof KubeApiError) return String(error.code);
  if (error instanceof TransportError) return error.reason;
  if (error instanceof TransformError) return 'transform';
  return error.name;
}

function render(effects: readonly Effect[]): string[] {
  return effects.flatMap((e): string[] => {
    switch (e.type) {
      case 'emit':
        return [e.event.type === 'LIST_START' ? 'START' : e.event.type];
      case 'status':
        if (e.status.type === 'ERROR') return [`ERROR(${errorName(e.status.error)})`];
        if (e.status.type === 'RELISTING') return [`RELISTING(${e.status.reason})`];
        return e.status.type === 'LISTING' ? [] : [e.status.type];
      case 'list':
        return [`LIST ${request(e.request)}`];
      case 'watch':
        return [`${e.request.sendInitialEvents ? 'STREAM' : 'WATCH'} ${request(e.request)}`];
      case 'backOff':
        return [`BACKOFF(${[e.next, e.slow ? 'slow' : '', e.retryAfterMs !== undefined ? `${e.retryAfterMs}ms` : ''].filter(Boolean).join(',')})`];
      case 'fail':
        return ['FAIL'];
    }
  });
}

const memoryText = (m: ReflectorMemory): string =>
  [JSON.stringify(m.lastSyncRV), m.rvUnavailable ? 'unavailable' : '', m.paginatedResult ? 'paginated' : ''].filter(Boolean).join(' ');

/** The invariants every effect list keeps: one starter, last; `LIST_START` then `LISTING` page 0 at the request's RV. */
function checkInvariants(effects: readonly Effect[]): string | undefined {
  const starters = effects.filter((e) => e.type === 'list' || e.type === 'watch' || e.type === 'backOff' || e.type === 'fail');
  if (starters.length > 1) return 'more than one request, timer or failure';
  if (starters.length === 1 && effects.at(-1) !== starters[0]) return 'the request, timer or failure is not the last effect';
  for (const [i, e] of effects.entries()) {
    if (e.type !== 'emit' || e.event.type !== 'LIST_START') continue;
    const listing = effects[i + 1];
    const req = effects[i + 2];
    if (listing?.type !== 'status' || listing.status.type !== 'LISTING' || listing.status.page !== 0) return 'LIST_START without LISTING page 0';
    if ((req?.type !== 'list' && req?.type !== 'watch') || (req.request.resourceVersion ?? '') !== listing.status.resourceVersion) {
      return 'LISTING does not name the RV of the request that follows';
    }
  }
  return undefined;
}

for (const [phaseName, errorName_, expected, memory] of rows) {
  test(`${phaseName} × ${errorName_}`, (t) => {
    const phase: Phase = phases[phaseName];
    const errorClass: ErrorClass = errorClasses[errorName_];
    const config = configFor(phase.streaming, errorClass.fatal ?? false);
    const step = reflectorStep(reach(phase, config), failure(phase, errorClass), config);
    const next = render(step.effects);
    t.is(checkInvariants(step.effects), undefined);
    if (step.state.kind === 'backingOff') {
      const after = reflectorStep(step.state, elapsed, config);
      t.is(checkInvariants(after.effects), undefined);
      t.is(after.state.memory, step.state.memory, 'a backoff changes no memory');
      next.push('→', ...render(after.effects));
    }
    t.is(next.join(' '), expected);
    t.is(memoryText(step.state.memory), memory);
  });
}

test('the table covers every error class in every phase (very short only where a watch can end without events)', (t) => {
  const listPhases = Object.keys(phases).filter((p) => !(phases[p as PhaseName] as Phase).watch);
  const missing: string[] = [];
  for (const phase of Object.keys(phases)) {
    for (const error of Object.keys(errorClasses)) {
      const notApplicable =
        (listPhases.includes(phase) && (error === 'very short' || error === 'clean close')) || (phase === 'stream watching' && error === 'very short');
      const count = rows.filter(([p, e]) => p === phase && e === error).length;
      if (count !== (notApplicable ? 0 : 1)) missing.push(`${phase} × ${error}: ${count} rows`);
    }
  }
  t.deepEqual(missing, []);
});

/* ---------------------------------------------------------------- the paths without errors */

const listConfig = configFor(false, false);
const streamConfig = configFor(true, false);
const idle: ReflectorState = { kind: 'idle', memory: initialMemory };

test('start: LIST_START, LISTING at page 0, the first LIST (R1)', (t) => {
  const step = reflectorStep(idle, start, listConfig);
  t.deepEqual(step.effects, [
    { type: 'emit', event: { type: 'LIST_START' } },
    { type: 'status', status: { type: 'LISTING', resourceVersion: '0', streaming: false, page: 0, itemsSoFar: 0 } },
    { type: 'list', request: { resourceVersion: '0', limit: 500 } },
  ]);
  t.like(step.state, { kind: 'listing', resourceVersion: '0', page: 0, fullRetry: false });
});

test('start with streamingList: LIST_START, LISTING (streaming), the streaming WATCH (R11)', (t) => {
  const step = reflectorStep(idle, start, streamConfig);
  t.deepEqual(step.effects, [
    { type: 'emit', event: { type: 'LIST_START' } },
    { type: 'status', status: { type: 'LISTING', resourceVersion: '', streaming: true, page: 0, itemsSoFar: 0 } },
    {
      type: 'watch',
      request: { resourceVersion: '', resourceVersionMatch: 'NotOlderThan', sendInitialEvents: true, allowWatchBookmarks: true, timeoutSeconds: 400 },
    },
  ]);
  t.deepEqual(step.state, { kind: 'streaming', memory: initialMemory, resourceVersion: '' });
});

test('pages: LIST_PAGE and LISTING each, continue without RV, LIST_DONE at the first page RV, then WATCH (R1, R4, R5)', (t) => {
  const first = reflectorStep(reflectorStep(idle, start, listConfig).state, { type: 'page', response: { items: [cm('a', '1')], resourceVersion: '10', continue: 'c1', remainingItemCount: 1 } }, listConfig);
  t.deepEqual(first.effects, [
    { type: 'emit', event: { type: 'LIST_PAGE', items: [cm('a', '1')], page: 1, itemsSoFar: 1, remainingItemCount: 1 } },
    { type: 'status', status: { type: 'LISTING', resourceVersion: '0', streaming: false, page: 1, itemsSoFar: 1, remainingItemCount: 1 } },
    { type: 'list', request: { limit: 500, continue: 'c1' } },
  ]);
  const last = reflectorStep(first.state, { type: 'page', response: { items: [cm('b', '2')], resourceVersion: '11' } }, listConfig);
  t.deepEqual(last.effects, [
    { type: 'emit', event: { type: 'LIST_PAGE', items: [cm('b', '2')], page: 2, itemsSoFar: 2 } },
    { type: 'status', status: { type: 'LISTING', resourceVersion: '0', streaming: false, page: 2, itemsSoFar: 2 } },
    { type: 'emit', event: { type: 'LIST_DONE', resourceVersion: '10' } },
    { type: 'watch', request: { resourceVersion: '10', allowWatchBookmarks: true, timeoutSeconds: 400 } },
  ]);
  // An RV "0" list that came back in two pages keeps later relists paged (R2).
  t.deepEqual(last.state, { kind: 'watching', memory: { lastSyncRV: '10', rvUnavailable: false, paginatedResult: true }, resourceVersion: '10' });
});

test('a page in parts: each part a LIST_PAGE and LISTING of the same page, no request; the last part ends the page (continue, or LIST_DONE at its RV); parts are not pages for R2', (t) => {
  const listing = reflectorStep(idle, start, listConfig).state;
  const part1 = reflectorStep(listing, { type: 'pagePart', response: { items: [cm('a', '1'), cm('b', '2')], resourceVersion: '10' } }, listConfig);
  t.deepEqual(part1.effects, [
    { type: 'emit', event: { type: 'LIST_PAGE', items: [cm('a', '1'), cm('b', '2')], page: 1, itemsSoFar: 2 } },
    { type: 'status', status: { type: 'LISTING', resourceVersion: '0', streaming: false, page: 1, itemsSoFar: 2 } },
  ]);
  const part2 = reflectorStep(part1.state, { type: 'pagePart', response: { items: [cm('c', '3')], resourceVersion: '10' } }, listConfig);
  t.deepEqual(part2.effects, [
    { type: 'emit', event: { type: 'LIST_PAGE', items: [cm('c', '3')], page: 1, itemsSoFar: 3 } },
    { type: 'status', status: { type: 'LISTING', resourceVersion: '0', streaming: false, page: 1, itemsSoFar: 3 } },
  ]);
  const last = reflectorStep(part2.state, { type: 'page', response: { items: [cm('d', '4')], resourceVersion: '10' } }, listConfig);
  t.deepEqual(last.effects, [
    { type: 'emit', event: { type: 'LIST_PAGE', items: [cm('d', '4')], page: 1, itemsSoFar: 4 } },
    { type: 'status', status: { type: 'LISTING', resourceVersion: '0', streaming: false, page: 1, itemsSoFar: 4 } },
    { type: 'emit', event: { type: 'LIST_DONE', resourceVersion: '10' } },
    { type: 'watch', request: { resourceVersion: '10', allowWatchBookmarks: true, timeoutSeconds: 400 } },
  ]);
  t.deepEqual(last.state.memory, { lastSyncRV: '10', rvUnavailable: false, paginatedResult: false }, 'one page in three parts is one page (R2)');
  // A part of a later page: numbered as that page; its last part follows the continue token.
  const paged = reflectorStep(listing, { type: 'page', response: { items: [cm('a', '1')], resourceVersion: '10', continue: 'c1' } }, listConfig).state;
  const part = reflectorStep(paged, { type: 'pagePart', response: { items: [cm('b', '2')], resourceVersion: '10', continue: 'c2' } }, listConfig);
  t.deepEqual(part.effects[0], { type: 'emit', event: { type: 'LIST_PAGE', items: [cm('b', '2')], page: 2, itemsSoFar: 2 } });
  t.deepEqual(reflectorStep(part.state, { type: 'page', response: { items: [], resourceVersion: '11', continue: 'c2' } }, listConfig).effects.at(-1), { type: 'list', request: { limit: 500, continue: 'c2' } });
});

test('R2: only an RV "0" list in several pages sets paginatedResult; a successful list clears the unavailable mark (R4)', (t) => {
  const onePage = reflectorStep(reflectorStep(idle, start, listConfig).state, page('10'), listConfig);
  t.deepEqual(onePage.state.memory, { lastSyncRV: '10', rvUnavailable: false, paginatedResult: false });
  const atEmpty = reach({ streaming: false, path: [start, listFailed(apiError('list', 410, 'Expired')), page('10', 'c'), page('11')] }, listConfig);
  t.deepEqual(atEmpty.memory, { lastSyncRV: '10', rvUnavailable: false, paginatedResult: false });
});

test('R11: the initial-events-end bookmark: LIST_PAGEs of pageSize, LISTING, LIST_DONE, WATCHING; the same stream goes on', (t) => {
  const config = resolveReflectorConfig<KubeObject>({ timeoutSeconds: 400, streamingList: true, pageSize: 2 });
  // A streaming list from "5" got a 410: the retry asks for RV "" (R11).
  const retry = reach(
    {
      streaming: true,
      path: [
        start, opened, initialEventsEnd('5'), watchEnded(apiError('watch', 500), { ...atOnce, resourceVersion: '5' }), elapsed,
        watchEnded(apiError('watch', 410, 'Expired'), { opened: false, events: 0, durationMs: 5, resourceVersion: '5' }),
      ],
    },
    config,
  );
  t.deepEqual(retry, { kind: 'streaming', memory: { lastSyncRV: '5', rvUnavailable: true, paginatedResult: false }, resourceVersion: '' });
  const unavailable = reflectorStep(retry, initialEventsEnd('8', [cm('a', '6'), cm('b', '7'), cm('c', '8')]), config);
  t.deepEqual(unavailable.effects, [
    { type: 'emit', event: { type: 'LIST_PAGE', items: [cm('a', '6'), cm('b', '7')], page: 1, itemsSoFar: 2 } },
    { type: 'emit', event: { type: 'LIST_PAGE', items: [cm('c', '8')], page: 2, itemsSoFar: 3 } },
    { type: 'status', status: { type: 'LISTING', resourceVersion: '', streaming: true, page: 2, itemsSoFar: 3 } },
    { type: 'emit', event: { type: 'LIST_DONE', resourceVersion: '8' } },
    { type: 'status', status: { type: 'WATCHING', resourceVersion: '8' } },
  ]);
  t.deepEqual(unavailable.state, { kind: 'watching', memory: { lastSyncRV: '8', rvUnavailable: false, paginatedResult: false }, resourceVersion: '8' });
});

test('opened: WATCHING from the watch RV; nothing during a streaming list', (t) => {
  const watching = reach({ streaming: false, path: [start, page('10')] }, listConfig);
  const step = reflectorStep(watching, opened, listConfig);
  t.deepEqual(step.effects, [{ type: 'status', status: { type: 'WATCHING', resourceVersion: '10' } }]);
  t.is(step.state, watching);
  const streaming = reach({ streaming: true, path: [start] }, streamConfig);
  t.deepEqual(reflectorStep(streaming, opened, streamConfig).effects, []);
});

test('R7: a clean close re-watches at once from the RV the events left, with a fresh timeout draw', (t) => {
  const config = resolveReflectorConfig<KubeObject>({});
  const watching = reach({ streaming: false, path: [start, page('10')] }, config);
  const timeouts = new Set<number>();
  for (let i = 0; i < 50; i++) {
    const step = reflectorStep(watching, watchEnded(undefined, { opened: true, events: 2, durationMs: 2000, resourceVersion: '12' }), config);
    const effect = step.effects[0];
    t.true(effect?.type === 'watch' && effect.request.resourceVersion === '12');
    if (effect?.type === 'watch') timeouts.add(effect.request.timeoutSeconds);
  }
  t.true([...timeouts].every((s) => Number.isInteger(s) && s >= 300 && s < 600));
  t.true(timeouts.size > 1, 'drawn per watch');
});

test('an input that does not belong to the state changes nothing and asks for nothing', (t) => {
  const listing = reach({ streaming: false, path: [start] }, listConfig);
  const watching = reach({ streaming: false, path: [start, page('10')] }, listConfig);
  const failed = reach({ streaming: false, path: [start, listFailed(apiError('list', 403))] }, configFor(false, true));
  const cases: Array<[ReflectorState, Input]> = [
    [listing, start],
    [listing, elapsed],
    [listing, watchEnded(undefined, { opened: true, events: 1, durationMs: 5000, resourceVersion: '1' })],
    [listing, initialEventsEnd('1')],
    [watching, page('11')],
    [watching, { type: 'pagePart', response: { items: [cm('a', '1')], resourceVersion: '11' } }],
    [watching, listFailed(apiError('list', 500))],
    [watching, initialEventsEnd('1')],
    [failed, start],
    [failed, elapsed],
    [failed, page('1')],
  ];
  t.is(failed.kind, 'failed');
  for (const [state, input] of cases) {
    const step = reflectorStep(state, input, listConfig);
    t.is(step.state, state, `${state.kind} × ${input.type}`);
    t.deepEqual(step.effects, []);
  }
});

test('a non-Error failure is reported as an Error with its text', (t) => {
  const step = reflectorStep(reach({ streaming: false, path: [start] }, listConfig), listFailed('socket went away'), listConfig);
  const error = step.effects[0];
  t.true(error?.type === 'status' && error.status.type === 'ERROR' && error.status.error instanceof Error && error.status.error.message === 'socket went away');
});

test('ERROR marks 403/404 permanent; a backoff and the RELISTING after it carry the reported error as their cause', (t) => {
  const forbidden = apiError('list', 403, 'Forbidden');
  const step = reflectorStep(reach({ streaming: false, path: [start] }, listConfig), listFailed(forbidden), listConfig);
  t.deepEqual(step.effects, [
    { type: 'status', status: { type: 'ERROR', error: forbidden, permanent: true } },
    { type: 'backOff', cause: forbidden, next: 'relist', slow: true, retryAfterMs: undefined },
  ]);
  t.deepEqual(reflectorStep(step.state, elapsed, listConfig).effects[0], { type: 'status', status: { type: 'RELISTING', reason: 'listError', cause: forbidden } });
  const internal = reflectorStep(reach({ streaming: false, path: [start] }, listConfig), listFailed(apiError('list', 500)), listConfig);
  t.like(internal.effects[0], { type: 'status', status: { type: 'ERROR', permanent: false } });
});

test('R3: a continue page of the full retry that expires is not retried in full again: RV "" at once', (t) => {
  const fullRetryPaged = reach({ streaming: false, path: [start, page('10', 'c1'), listFailed(apiError('list', 410, 'Expired')), page('12', 'c2')] }, listConfig);
  t.like(fullRetryPaged, { kind: 'listing', fullRetry: true, request: { continue: 'c2' } });
  const step = reflectorStep(fullRetryPaged, listFailed(apiError('list', 410, 'Expired')), listConfig);
  t.deepEqual(render(step.effects), ['ERROR(410)', 'RELISTING(expired)', 'START', 'LIST rv="" limit=500']);
  t.true(step.state.memory.rvUnavailable);
});

test('R11: a 410 on a streaming list that already asked for RV "" falls back to LIST', (t) => {
  const first = reach({ streaming: true, path: [start] }, streamConfig);
  t.like(first, { kind: 'streaming', resourceVersion: '' });
  const step = reflectorStep(first, watchEnded(apiError('watch', 410, 'Expired'), { opened: false, events: 0, durationMs: 5, resourceVersion: '' }), streamConfig);
  t.deepEqual(render(step.effects), ['ERROR(410)', 'RELISTING(streamingFallback)', 'START', 'LIST rv="0" limit=500']);
  t.false(step.state.memory.rvUnavailable);
});
