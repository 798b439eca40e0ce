/**
 * Shard selectors of the API server's sharded list and watch (KEP-5866, Kubernetes 1.36, feature
 * gate `ShardedListAndWatch`): `shardRange(object.metadata.uid, '0x<start>', '0x<end>')`, several
 * joined with `||`. An object is selected when the 64-bit FNV-1a hash of the field ({@link
 * hashField}) lies in one of the ranges, each `[start, end)` over `[0, 2^64)`.
 *
 * The checks are the API server's: the field is `object.metadata.uid` or
 * `object.metadata.namespace` (one field for all ranges); a bound is `0x` and exactly 16
 * lower-case hex digits, or `0x10000000000000000` (2^64); start < end. The server answers a
 * selector that breaks them with a 500, which a client would retry for ever: check first.
 */
import type { KubeObject } from '../store/kubeObject.js';
import { hashField } from './hashField.js';
import { argumentError } from '../options/optionChecks.js';

/** What a shard selector hashes. */
export type ShardField = 'object.metadata.uid' | 'object.metadata.namespace';

/** Hashes `[start, end)`, with `0 <= start < end <= 2^64`. */
export interface ShardRange {
  /** The first hash in the range (inclusive). */
  readonly start: bigint;
  /** The hash after the last one in the range (exclusive); `2^64` for a range that runs to the end. */
  readonly end: bigint;
}

/** A parsed shard selector. */
export interface ParsedShardSelector {
  /** The field whose hash places an object. */
  readonly field: ShardField;
  /** The hash ranges selected: an object is in when its field's hash falls in one. */
  readonly ranges: readonly ShardRange[];
}

/** 2^64: the exclusive end of the hash space. */
export const shardSpaceEnd = 1n << 64n;

const fields: readonly string[] = ['object.metadata.uid', 'object.metadata.namespace'];

/**
 * The shard selector of `ranges` over `field`.
 *
 * ```text
 * shardSelectorOf([{ start: 0n, end: 2n ** 63n }])
 *   → "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"
 * ```
 *
 * @param ranges at least one range, each `0 <= start < end <= 2^64`.
 * @param field what is hashed. Default `object.metadata.uid`.
 * @returns the selector, for `listWatch`'s `shardSelector` option.
 * @throws {TypeError} for no ranges, a bad range or a bad field.
 */
export function shardSelectorOf(ranges: readonly ShardRange[], field: ShardField = 'object.metadata.uid'): string {
  if (!fields.includes(field)) throw argumentError('shardSelectorOf', `field must be ${fields.join(' or ')}, got ${JSON.stringify(field)}`);
  if (!Array.isArray(ranges) || ranges.length === 0) throw argumentError('shardSelectorOf', 'ranges must hold at least one range (a selector cannot select nothing)');
  return ranges
    .map((range) => {
      const { start, end } = range ?? {};
      if (typeof start !== 'bigint' || typeof end !== 'bigint' || start < 0n || end > shardSpaceEnd || start >= end) {
        throw argumentError('shardSelectorOf', `a range must be { start, end } bigints with 0 <= start < end <= 2^64, got ${String(start)}..${String(end)}`);
      }
      return `shardRange(${field}, '${hexBound(start)}', '${hexBound(end)}')`;
    })
    .join(' || ');
}

/** A bound as the API server wants it: `0x` and 16 hex digits, or 17 for 2^64. */
const hexBound = (value: bigint): string => `0x${value.toString(16).padStart(16, '0')}`;

/**
 * Parses and checks a shard selector as the API server does.
 *
 * @param text the selector.
 * @returns its field and ranges, in the order written.
 * @throws {TypeError} `invalid shard selector: <what is wrong>`.
 */
export function parseShardSelector(text: string): ParsedShardSelector {
  const fail = (reason: string): never => {
    throw new TypeError(`invalid shard selector: ${reason}`);
  };
  if (typeof text !== 'string' || text.trim() === '') fail('it is empty (leave the parameter out to select everything)');
  let at = 0;
  const skip = (): void => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const expect = (token: string): void => {
    skip();
    if (!text.startsWith(token, at)) fail(`expected ${JSON.stringify(token)} at offset ${at}, got ${JSON.stringify(text.slice(at, at + 12))}`);
    at += token.length;
  };
  const path = (): string => {
    skip();
    const match = /^[A-Za-z_][A-Za-z0-9_]*(\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*/.exec(text.slice(at));
    if (match === null) fail(`expected a field path at offset ${at}`);
    at += match![0].length;
    const field = match![0].replace(/\s+/g, '');
    if (!fields.includes(field)) fail(`field ${JSON.stringify(field)} is not supported (only ${fields.join(' and ')})`);
    return field;
  };
  const bound = (name: string): bigint => {
    skip();
    const quote = text[at];
    if (quote !== "'" && quote !== '"') fail(`${name} must be a quoted string such as '0x0000000000000000', at offset ${at}`);
    const close = text.indexOf(quote!, at + 1);
    if (close < 0) fail(`${name} has no closing quote`);
    const literal = text.slice(at + 1, close);
    at = close + 1;
    if (!literal.startsWith('0x')) fail(`${name} ${JSON.stringify(literal)} must start with 0x`);
    const digits = literal.slice(2);
    if (!/^[0-9a-f]+$/.test(digits)) fail(`${name} ${JSON.stringify(literal)} must be lower-case hex digits after 0x`);
    if (digits.length === 17 ? literal !== '0x10000000000000000' : digits.length !== 16) {
      fail(`${name} ${JSON.stringify(literal)} must be 16 hex digits (or 0x10000000000000000 for 2^64)${digits.length < 16 ? `, e.g. '0x${digits.padStart(16, '0')}'` : ''}`);
    }
    return BigInt(literal);
  };
  const term = (): Array<{ field: string; range: ShardRange }> => {
    skip();
    if (text[at] === '(') {
      at++;
      const inner = expression();
      expect(')');
      return inner;
    }
    expect('shardRange');
    expect('(');
    const field = path();
    expect(',');
    const start = bound('the start');
    expect(',');
    const end = bound('the end');
    expect(')');
    if (start >= end) fail(`the start ${hexBound(start)} must be below the end ${hexBound(end)}`);
    return [{ field, range: { start, end } }];
  };
  const expression = (): Array<{ field: string; range: ShardRange }> => {
    const terms = term();
    for (skip(); text.startsWith('||', at); skip()) {
      at += 2;
      terms.push(...term());
    }
    return terms;
  };
  const terms = expression();
  skip();
  if (at < text.length) fail(`unexpected ${JSON.stringify(text.slice(at, at + 12))} at offset ${at} (only shardRange(…) joined with || is allowed)`);
  const field = terms[0]!.field;
  const other = terms.find((t) => t.field !== field);
  if (other) fail(`every range must hash the same field, got ${field} and ${other.field}`);
  return { field: field as ShardField, ranges: terms.map((t) => t.range) };
}

/** Whether `hash` (16 hex digits, as {@link hashField} returns) lies in one of `ranges`. */
export function inShardRanges(ranges: readonly ShardRange[], hash: string): boolean {
  const value = BigInt(`0x${hash}`);
  return ranges.some((range) => range.start <= value && value < range.end);
}

/** Whether `selector` selects `object`, as the API server decides it. */
export function shardSelectorMatches(selector: ParsedShardSelector, object: KubeObject): boolean {
  const value = selector.field === 'object.metadata.uid' ? object.metadata?.uid : object.metadata?.namespace;
  return inShardRanges(selector.ranges, hashField(value ?? ''));
}
