/**
 * Parses a Kubernetes list body as it arrives: the head (everything before `"items":`, which the
 * apiserver writes first: kind, apiVersion, metadata) as soon as it is in, then the items a network
 * chunk at a time, so that a 100,000-object list is parsed while it streams in and never held as
 * one buffer and one string (~2 × 144 MB at 100k ConfigMaps) beside its objects.
 *
 * The items array is cut into runs of whole items, each parsed with one `JSON.parse`; an item split
 * across chunks waits for the rest. Every item goes through `JSON.parse` and the commas between
 * runs are checked, so what is accepted is JSON. Two cutters:
 * - a byte scanner that tracks strings (with escapes) and nesting: exact for any JSON, and its cost
 *   is ~0.8 of the parse's on a list of ConfigMaps;
 * - once an item of objects has been seen, its opening bytes (`{"metadata":` from the apiserver,
 *   `{"apiVersion":` for most custom resources) with `},` before them are the *marker*: a chunk is
 *   cut at its last marker and the run up to it parsed, with no scan. A cut there is trusted only
 *   because the parse proves it: the run starts where an item starts, so it parses as `[run]` only
 *   when the cut ends an item (a cut inside a string leaves it open, one inside an item leaves a
 *   bracket open, one after the array's end leaves text after `]`). When the parse fails (a nested
 *   array repeating the marker) or a chunk has no marker (an item larger than a chunk, other first
 *   keys, whitespace between items), the scanner takes over from the held item's first byte and
 *   hands back at the next chunk where an item starts. Once the bytes of failed cuts pass an eighth
 *   of those cut (and 256 KiB), the scanner keeps the rest of the body: items that repeat the
 *   marker in a nested array cost what the scanner costs, not a failed parse on top.
 *
 * A body is only streamed once it has grown past `streamAfterBytes` (4 MiB: a page of 500 objects
 * stays below it and is parsed whole, a one-page list of the whole collection, or an unpaged relist,
 * streams). A body without a head before `"items":[` (within 64 KiB) is kept and parsed whole at
 * the end. The items of a streamed body can be taken as they are parsed
 * ({@link ListBodyParser.takeItems}), so that whoever stores them works while the rest is on the
 * wire.
 *
 * Internal to the HTTP ListerWatcher; pure (no I/O): {@link readList} feeds it a response.
 */

import { concatBytes, indexOfBytes, textBytes, utf8 } from '../../client/transport/bytes.js';

/** Bytes searched for `"items":` before giving up on streaming and parsing the body whole. */
const maxHeadBytes = 64 * 1024;
/** Bytes of a body kept whole before it is streamed instead. */
const defaultStreamAfterBytes = 4 * 1024 * 1024;
const itemsKey = textBytes('"items":');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Bytes of failed cuts a body may have beyond an eighth of the bytes cut, before the marker cutter is off for the rest of it. */
const failedCutSlack = 256 * 1024;
/** Bytes of an item's first key searched for when learning the marker. */
const maxMarkerKeyBytes = 128;

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Where the items scanner is between chunks. */
interface ScanState {
  /** Nesting inside the current item (0: between items). */
  depth: number;
  inString: boolean;
  /** The last byte was a backslash inside a string. */
  escaped: boolean;
  /** Inside a number, `true`, `false` or `null` at the items level. */
  inLiteral: boolean;
  /** Inside an item. */
  inItem: boolean;
  /** Between items: 0 at the array's start, 1 after an item, 2 after a comma. */
  sep: 0 | 1 | 2;
}

/** The scanner at the items array's start (or at an item's first byte). */
const startState = (): ScanState => ({ depth: 0, inString: false, escaped: false, inLiteral: false, inItem: false, sep: 0 });

const missingComma = (): SyntaxError => new SyntaxError('two items of the items array without a comma between them');

/** What one chunk held: offsets in it, -1 when absent (`runStart` -1: the run began in an earlier chunk; -2: no run). */
interface ScanResult {
  runStart: number;
  itemStart: number;
  lastEnd: number;
  /** The items array's closing `]`. */
  arrayEnd: number;
}

/**
 * The scanner's loop, on locals (it runs for every byte of a large list): from `start`, tracks
 * strings, escapes and nesting, and notes where items begin and end. A string's end is found with
 * `indexOf` (strings are most of a Kubernetes object's bytes). Updates `state` for the next chunk.
 */
function scan(chunk: Uint8Array, start: number, state: ScanState): ScanResult {
  const n = chunk.length;
  let { depth, inString, escaped, inLiteral, inItem, sep } = state;
  let runStart = inItem ? -1 : -2;
  let itemStart = -1;
  let lastEnd = -1;
  let arrayEnd = -1;
  let i = start;
  while (i < n) {
    if (inString) {
      if (escaped) {
        escaped = false;
        i++;
        continue;
      }
      const quote = chunk.indexOf(QUOTE, i);
      // Backslashes right before the quote (or, with none, at the chunk's end): an odd run escapes it.
      const end = quote < 0 ? n : quote;
      let k = end - 1;
      while (k >= i && chunk[k] === BACKSLASH) k--;
      const odd = (end - 1 - k) % 2 === 1;
      if (quote < 0) {
        escaped = odd;
        i = n;
      } else if (odd) {
        i = quote + 1;
      } else {
        inString = false;
        i = quote + 1;
        if (depth === 0) {
          inItem = false;
          lastEnd = i;
          sep = 1;
        }
      }
      continue;
    }
    const b = chunk[i]!;
    if (inLiteral) {
      if (b === COMMA || b === CLOSE_BRACKET || isSpace(b)) {
        inLiteral = false;
        inItem = false;
        lastEnd = i;
        sep = 1;
      } else {
        i++;
        continue;
      }
    }
    if (b === QUOTE) {
      if (depth === 0) {
        if (sep === 1) throw missingComma();
        inItem = true;
        itemStart = i;
        if (runStart === -2) runStart = i;
      }
      inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (depth === 0) {
        if (sep === 1) throw missingComma();
        inItem = true;
        itemStart = i;
        if (runStart === -2) runStart = i;
      }
      depth++;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      if (depth === 0) {
        if (b === CLOSE_BRACE) throw new SyntaxError(`unexpected "}" in the items array`);
        if (sep === 2) throw new SyntaxError('a comma before the end of the items array');
        arrayEnd = i;
        break;
      }
      depth--;
      if (depth === 0) {
        inItem = false;
        lastEnd = i + 1;
        sep = 1;
      }
    } else if (depth === 0 && b === COMMA) {
      if (sep !== 1) throw new SyntaxError('a comma in the items array without an item before it');
      sep = 2;
    } else if (depth === 0 && !isSpace(b)) {
      if (sep === 1) throw missingComma();
      inItem = true;
      itemStart = i;
      if (runStart === -2) runStart = i;
      inLiteral = true;
    }
    i++;
  }
  state.depth = depth;
  state.inString = inString;
  state.escaped = escaped;
  state.inLiteral = inLiteral;
  state.inItem = inItem;
  state.sep = sep;
  return { runStart, itemStart, lastEnd, arrayEnd };
}

/** Where the last `marker` (which begins with `}`) starts in `chunk`, or -1. */
function lastIndexOfMarker(chunk: Uint8Array, marker: Uint8Array): number {
  for (let at = chunk.lastIndexOf(CLOSE_BRACE, chunk.length - marker.length); at >= 0; at = at === 0 ? -1 : chunk.lastIndexOf(CLOSE_BRACE, at - 1)) {
    let k = 1;
    while (k < marker.length && chunk[at + k] === marker[k]) k++;
    if (k === marker.length) return at;
  }
  return -1;
}

/**
 * The marker of the item that opens at `start`: `},` and the item's bytes up to its first key's
 * `:` (`},{"metadata":`), or `undefined` when the item is not an object with a plain first key
 * within the chunk.
 */
function markerAt(chunk: Uint8Array, start: number): Uint8Array | undefined {
  if (chunk[start] !== OPEN_BRACE || chunk[start + 1] !== QUOTE) return undefined;
  const limit = Math.min(chunk.length - 1, start + 2 + maxMarkerKeyBytes);
  let q = start + 2;
  while (q < limit && chunk[q] !== QUOTE && chunk[q] !== BACKSLASH) q++;
  if (q >= limit || chunk[q] !== QUOTE || chunk[q + 1] !== COLON) return undefined;
  const marker = new Uint8Array(q + 4 - start);
  marker[0] = CLOSE_BRACE;
  marker[1] = COMMA;
  marker.set(chunk.subarray(start, q + 2), 2);
  return marker;
}

/** What {@link createListBodyParser} returns. */
export interface ListBodyParser {
  /** Feeds the next chunk. Throws a `SyntaxError` when the body cannot be JSON. */
  push(chunk: Uint8Array): void;
  /**
   * The items parsed since the last take, as a list (the head's fields, then those items), once at
   * least `min` are waiting inside the items array; `undefined` before that, once the parser has
   * seen the array's end (the rest is {@link ListBodyParser.end}'s; the marker cutter sees it only
   * at the end, so a part may come from the array's last chunk), and for a body that is not
   * streamed. Taken items are not in `end()`'s list.
   */
  takeItems(min: number): Record<string, unknown> | undefined;
  /** The body has ended: the list (head fields, then the items not taken) or, for a body parsed whole, its value. */
  end(): unknown;
}

/**
 * @param onHead called once with the parsed head (`{ ...head, items: [] }`) when it has arrived;
 * not at all when there is no head (the body is parsed whole).
 * @param streamAfterBytes bytes kept before the items are parsed as they arrive (default 4 MiB).
 */
export function createListBodyParser(onHead?: (head: Record<string, unknown>) => void, streamAfterBytes = defaultStreamAfterBytes): ListBodyParser {
  // head: looking for `"items":`; beforeArray: found, waiting for its `[`; buffering: the head is
  // known and the body still small (kept whole); items: streaming; tail: after the items array;
  // whole: no usable head, kept whole.
  type Phase = 'head' | 'beforeArray' | 'buffering' | 'items' | 'tail' | 'whole';
  let phase: Phase = 'head';
  // head and whole: every byte so far; tail: the bytes after the items array.
  let parts: Uint8Array[] = [];
  let size = 0;
  // The last bytes already searched for `"items":`, so a key split across chunks is still found.
  let window: Uint8Array = new Uint8Array(0);
  let head: Record<string, unknown> | undefined;
  // buffering: where the items array's `[` is, counted from the start of the body.
  let arrayAt = 0;
  let items: unknown[] = [];

  const state = startState();
  // Bytes of the unparsed run of items that started in an earlier chunk.
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  // The marker cutter is on: `held` begins at an item's `{` and `state` is not kept.
  let cutting = false;
  let marker: Uint8Array | undefined;
  // Bytes parsed by cuts that held and by cuts that failed. Items that repeat the marker in a
  // nested array fail most cuts; once the failed bytes pass an eighth of the cut ones (and the
  // slack), the scanner keeps the body, which then costs what it cost before the cutter.
  let cutBytes = 0;
  let failedBytes = 0;
  let cutterOff = false;

  const parseRun = (text: string): void => {
    const run = JSON.parse(`[${text}]`) as unknown[];
    for (let i = 0; i < run.length; i++) items.push(run[i]);
  };

  const textOf = (chunk: Uint8Array, from: number, to: number): string => {
    if (heldBytes === 0) return utf8(chunk, from, to);
    held.push(chunk.subarray(0, to));
    const text = utf8(concatBytes(held, heldBytes + to));
    held = [];
    heldBytes = 0;
    return text;
  };

  /** Scans `chunk` from `start`: parses the complete items it holds, keeps a partial one. */
  const scanItems = (chunk: Uint8Array, start: number): void => {
    const n = chunk.length;
    const found = scan(chunk, start, state);
    const { lastEnd, runStart, itemStart } = found;
    if (lastEnd >= 0) {
      parseRun(textOf(chunk, runStart < 0 ? 0 : runStart, lastEnd));
      if (state.inItem) {
        held = [chunk.subarray(itemStart)];
        heldBytes = n - itemStart;
      }
    } else if (state.inItem) {
      const from = runStart >= 0 ? runStart : 0;
      held.push(from === 0 ? chunk : chunk.subarray(from));
      heldBytes += n - from;
    }
    if (found.arrayEnd >= 0) {
      phase = 'tail';
      if (found.arrayEnd + 1 < n) {
        parts = [chunk.subarray(found.arrayEnd + 1)];
        size = n - found.arrayEnd - 1;
      }
    } else if (lastEnd >= 0 && state.inItem && !state.inLiteral) {
      // An item starts in this chunk and is held from its first byte: hand the next chunk to the marker.
      const found = cutterOff ? undefined : markerAt(chunk, itemStart);
      if (found !== undefined) {
        marker = found;
        cutting = true;
      }
    }
  };

  /** The marker cutter: parses the held bytes and `chunk` up to its last marker; `false` (nothing changed) when there is none or the run does not parse. */
  const cutAtMarker = (chunk: Uint8Array): boolean => {
    const cut = lastIndexOfMarker(chunk, marker!);
    if (cut < 0) return false;
    const run = heldBytes === 0 ? chunk.subarray(0, cut + 1) : concatBytes([...held, chunk.subarray(0, cut + 1)], heldBytes + cut + 1);
    try {
      parseRun(utf8(run)); // adds nothing when it throws
    } catch {
      // Not an item's end: the scanner decides, and throws if the body is not JSON.
      failedBytes += run.length;
      if (failedBytes > cutBytes / 8 + failedCutSlack) cutterOff = true;
      return false;
    }
    cutBytes += run.length;
    held = [chunk.subarray(cut + 2)];
    heldBytes = chunk.length - cut - 2;
    return true;
  };

  /** Back to the scanner, from the held item's first byte. */
  const scanFromHeld = (chunk: Uint8Array): void => {
    const all = heldBytes === 0 ? chunk : concatBytes([...held, chunk], heldBytes + chunk.length);
    held = [];
    heldBytes = 0;
    cutting = false;
    Object.assign(state, startState());
    scanItems(all, 0);
  };

  /** After `"items":`: skip whitespace to the `[`; anything else means the body is parsed whole. */
  const openArray = (chunk: Uint8Array, start: number, whole: Uint8Array[]): void => {
    let i = start;
    while (i < chunk.length && isSpace(chunk[i]!)) i++;
    if (i === chunk.length) return;
    parts = whole;
    size = whole.reduce((sum, part) => sum + part.length, 0);
    if (chunk[i] !== OPEN_BRACKET) {
      phase = 'whole';
      return;
    }
    onHead?.(head!);
    phase = 'buffering';
    arrayAt = size - chunk.length + i;
    buffer();
  };

  /** Keeps the body whole while it is small; past `streamAfterBytes`, scans what came so far and streams on. */
  const buffer = (): void => {
    if (size <= streamAfterBytes) return;
    const all = parts.length === 1 ? parts[0]! : concatBytes(parts, size);
    phase = 'items';
    parts = [];
    size = 0;
    scanItems(all, arrayAt + 1);
  };

  const findHead = (chunk: Uint8Array): void => {
    parts.push(chunk);
    size += chunk.length;
    const searched = window.length === 0 ? chunk : concatBytes([window, chunk]);
    const found = indexOfBytes(searched, itemsKey);
    if (found < 0) {
      if (size > maxHeadBytes) phase = 'whole';
      else window = new Uint8Array(searched.subarray(Math.max(0, searched.length - itemsKey.length + 1))); // a copy: not a view holding the chunk
      return;
    }
    const all = concatBytes(parts, size);
    const at = size - searched.length + found;
    try {
      head = JSON.parse(`${utf8(all, 0, at)}"items":[]}`) as Record<string, unknown>;
    } catch {
      phase = 'whole'; // not a head we understand
      return;
    }
    if (head === null || typeof head !== 'object' || Array.isArray(head)) {
      phase = 'whole';
      return;
    }
    phase = 'beforeArray';
    openArray(all, at + itemsKey.length, [all]);
  };

  return {
    takeItems(min) {
      if (phase !== 'items' || items.length === 0 || items.length < min) return undefined;
      const taken = items;
      items = [];
      return { ...head, items: taken };
    },
    push(chunk) {
      switch (phase) {
        case 'head':
          return findHead(chunk);
        case 'beforeArray':
          parts.push(chunk);
          size += chunk.length;
          return openArray(chunk, 0, parts);
        case 'buffering':
          parts.push(chunk);
          size += chunk.length;
          return buffer();
        case 'items':
          if (!cutting) return scanItems(chunk, 0);
          if (cutAtMarker(chunk)) return;
          return scanFromHeld(chunk);
        case 'tail':
        case 'whole':
          parts.push(chunk);
          size += chunk.length;
          return;
      }
    },
    end() {
      // The marker cutter does not look for the array's end: the scanner finds it in the held bytes.
      if (phase === 'items' && cutting) scanFromHeld(new Uint8Array(0));
      if (phase === 'items') throw new SyntaxError('the body ended inside the items array');
      // A small body, or no "items" (or no array after it): whatever it is, parse it whole.
      if (phase !== 'tail') phase = 'whole';
      const rest = utf8(parts.length === 1 ? parts[0]! : concatBytes(parts, size));
      if (phase === 'whole') return JSON.parse(rest);
      // The tail is `}` from the apiserver; any members after the items still count, and must parse.
      const after = JSON.parse(`{"items":[]${rest}`) as Record<string, unknown>;
      delete after['items'];
      return { ...head, ...after, items };
    },
  };
}
