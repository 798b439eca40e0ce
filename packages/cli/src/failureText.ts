import { KubeApiError, TransportError, type DiscoveredResource } from 'rx-informer';
import { CliError } from './cliError.js';

/** What a failure was about, to word it as kubectl does. */
export interface FailureContext {
  /** The cluster's URL. */
  readonly server: string;
  /** The resource as typed (`po`). */
  readonly typed: string;
  /** The resource, once discovery found it. */
  readonly resource?: DiscoveredResource;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

/** Node's codes for a server certificate that cannot be trusted, or a TLS handshake that cannot happen. */
const tlsCodes = new Set([
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_SIGNATURE_FAILURE', 'CERT_REVOKED', 'CERT_UNTRUSTED',
  'CERT_REJECTED', 'INVALID_CA', 'PATH_LENGTH_EXCEEDED', 'INVALID_PURPOSE', 'HOSTNAME_MISMATCH', 'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER', 'EPROTO',
]);

/** Whether `error` is a TLS failure: retrying cannot make the certificate trusted. */
export function isTlsFailure(error: unknown): boolean {
  return error instanceof TransportError && error.code !== undefined && tlsCodes.has(error.code);
}

/**
 * Whether the CLI gives up on an error the source reported: a request the server refuses as
 * malformed (400, 422: a bad `-l` or `--field-selector`; the source gives up on those as well,
 * right after this `ERROR` status), and a TLS failure (which the source would retry). 403 and 404
 * end the source itself (`fatalErrors: 'permanent'`).
 */
export function isHopeless(error: unknown): boolean {
  return (error instanceof KubeApiError && error.invalidRequest) || isTlsFailure(error);
}

/**
 * The line(s) kubectl would print for a failure: `Error from server (BadRequest): Unable to find
 * "/v1, Resource=pods" that match label selector "a b", field selector "": …`, `error: the server
 * doesn't have a resource type "frobs"`, `error: You must be logged in to the server
 * (Unauthorized)`, `error: Unable to connect to the server: …`.
 *
 * @param error what went wrong.
 * @param context the server, the resource and the selectors.
 */
export function failureText(error: unknown, context: FailureContext): string {
  if (error instanceof CliError) return error.message;
  if (error instanceof KubeApiError) return apiErrorText(error, context);
  if (error instanceof TransportError) {
    const what = isTlsFailure(error) ? `tls: ${plain(error.message)} (${error.code})` : plain(error.message);
    return `error: Unable to connect to the server: ${what}`;
  }
  return `error: ${plain(error instanceof Error ? error.message : String(error))}`;
}

function apiErrorText(error: KubeApiError, context: FailureContext): string {
  const message = typeof error.status?.message === 'string' && error.status.message !== '' ? error.status.message : `the server responded with HTTP ${error.code}`;
  if (error.code === 401) return `error: You must be logged in to the server (${error.status?.message || 'Unauthorized'})`;
  if (error.verb === 'discover' && error.code === 404) {
    if (error.resource === context.typed) return `error: the server doesn't have a resource type ${JSON.stringify(context.typed)}`;
    return `error: the server at ${context.server} is not a Kubernetes API server: GET ${error.resource} answered 404 (${message})`;
  }
  const reason = error.reason ? ` (${error.reason})` : '';
  const resource = context.resource;
  if ((error.code === 400 || error.code === 404) && resource && error.verb !== 'discover') {
    // kubectl's wording for a list the server refused: it names the resource and the selectors.
    const gvr = `${resource.group}/${resource.version}, Resource=${resource.plural}`;
    const selected = context.labelSelector !== undefined || context.fieldSelector !== undefined;
    const what = selected
      ? `Unable to find ${JSON.stringify(gvr)} that match label selector ${JSON.stringify(context.labelSelector ?? '')}, field selector ${JSON.stringify(context.fieldSelector ?? '')}: ${message}`
      : `Unable to list ${JSON.stringify(gvr)}: ${message}`;
    return `Error from server${reason}: ${what}`;
  }
  return `Error from server${reason}: ${message}`;
}

/** A library message without its `[informer] ` (or other part's, `[listWatch] `) prefix and the `list failed: ` kind of lead. */
function plain(message: string): string {
  return message.replace(/^\[[A-Za-z.]+\] /, '').replace(/^(list|watch|discover) failed: /, '');
}
