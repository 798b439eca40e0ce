import { TestApiServerError } from './testApiServerError.js';
import { badRequest } from './kubeStatus.js';

/** What a continue token carries: the list's resourceVersion and the key to resume from. @internal */
export interface ContinuePosition {
  readonly rv: number;
  /** Resume at keys >= start (the last returned key plus `\u0000`, as the real server encodes it). */
  readonly start: string;
}

/** Encodes a continue token the way the real server does (base64 JSON `{v, rv, start}`). @internal */
export function encodeContinue(rv: number, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` })).toString('base64url');
}

/**
 * Decodes a token from {@link encodeContinue}.
 *
 * @throws {TestApiServerError} 400 "continue key is not valid" for anything else.
 */
export function decodeContinue(token: string): ContinuePosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (value !== null && typeof value === 'object') {
      const { v, rv, start } = value as Record<string, unknown>;
      if (v === 'meta.k8s.io/v1' && typeof rv === 'number' && Number.isInteger(rv) && typeof start === 'string') return { rv, start };
    }
  } catch {
    // fall through
  }
  throw new TestApiServerError(badRequest(`continue key is not valid: invalid continue token "${token}"`));
}
