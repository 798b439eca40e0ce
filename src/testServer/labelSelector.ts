import { matchesLabels, parseLabelSelector as parseStoreSelector, type LabelSelector } from '../store/labelSelector.js';
import { LabelSelectorError } from '../errors.js';

/** A parsed selector: true when an object's labels (or fields) satisfy every requirement. */
export type SelectorMatcher = (values: Readonly<Record<string, string>> | undefined) => boolean;

/** Thrown for a selector the real server would refuse; the server answers 400 with its message. */
export class SelectorSyntaxError extends Error {
  override readonly name = 'SelectorSyntaxError';
}

/**
 * Parses a Kubernetes label selector, equality- and set-based: `a=b,c!=d,e in (x,y),f notin (z),g,!h`
 * (also `==`, and `a>1`, `a<1`), with the same parser the store's `list({ labelSelector })` uses.
 * The empty selector matches everything.
 *
 * @throws {SelectorSyntaxError} naming the part it could not parse (the server answers 400).
 */
export function parseLabelSelector(selector: string): SelectorMatcher {
  let parsed: LabelSelector;
  try {
    parsed = parseStoreSelector(selector);
  } catch (error) {
    if (error instanceof LabelSelectorError) throw new SelectorSyntaxError(`unable to parse requirement: ${error.message.replace(/^\[informer\] /, '')}`);
    throw error;
  }
  return (labels) => matchesLabels(parsed, labels);
}
