/**
 * What an exec credential plugin (or any tool that handles credentials) may print, made safe to
 * show: anything that looks like a credential is replaced by `[redacted]`, the rest is kept so the
 * failure still says what went wrong.
 *
 * Taken out, in this order: PEM blocks (`-----BEGIN … KEY-----` to its `END` line, or to the end
 * when it is cut short); the rest of an `Authorization:` line; the value after a credential-like name (`token`, `password`, `secret`,
 * `api-key`, `credential`, …, followed by `:` or `=`, quoted or not) and after `Bearer` or `Basic`; JWTs (`eyJ….….…`); and any other run of 20 or more token characters (letters, digits,
 * `+/=_-.~`) that mixes letters and digits, which is what random tokens and base64 key material
 * look like (a long versioned path can be caught too: that is the price of not leaking).
 *
 * @param text what the tool printed.
 * @param maxLength the longest text returned (after scrubbing), cut with `…`.
 * @internal
 */
export function scrubCredentials(text: string, maxLength = 1000): string {
  const scrubbed = text
    .replace(pemBlock, '[redacted key material]')
    .replace(authorizationLine, (_, name: string, separator: string) => `${name}${separator}[redacted]`)
    .replace(namedValue, (_, name: string, separator: string) => `${name}${separator}[redacted]`)
    .replace(schemeValue, (_, name: string, separator: string) => `${name}${separator}[redacted]`)
    .replace(jwt, '[redacted]')
    .replace(opaqueRun, (run) => (/[A-Za-z]/.test(run) && /\d/.test(run) ? '[redacted]' : run));
  return scrubbed.length > maxLength ? `${scrubbed.slice(0, maxLength - 1)}…` : scrubbed;
}

// A header's whole value: a scheme (`Bearer`, `Basic`) and its credential.
const authorizationLine = /\b((?:proxy-)?authorization)("?\s*[:=]\s*)[^\r\n]*/gi;
const pemBlock = /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|$)/g;
const names = 'token|access[-_ ]?token|id[-_ ]?token|refresh[-_ ]?token|password|passwd|pwd|secret|client[-_ ]?secret|api[-_ ]?key|access[-_ ]?key|private[-_ ]?key|credentials?|session';
// A name, an optional closing quote, `:` or `=`, then the value (quoted, or up to a space, comma, quote or bracket).
const namedValue = new RegExp(`\\b(${names})("?\\s*[:=]\\s*"?)(?!\\[redacted)(?:"[^"]*"|[^\\s,"'}\\]]+)`, 'gi');
// An authentication scheme and its credential.
const schemeValue = /\b(bearer|basic)(\s+)(?!\[redacted)[^\s,"'}\]]+/gi;
const jwt = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const opaqueRun = /[A-Za-z0-9+/=_\-.~]{20,}/g;
