/** How a response body is shaped, from the request's `Accept` header. @internal */
export type Representation = 'object' | 'metadata' | 'table';

/**
 * Picks the representation for a request from its `Accept` header, in the client's order, as the
 * real server does: plain JSON, `as=PartialObjectMetadataList` (lists) / `as=PartialObjectMetadata`
 * (get and watch) in `meta.k8s.io/v1`, or `as=Table`. Protobuf and unknown `as=` ranges are
 * skipped; `undefined` means nothing acceptable (406).
 *
 * @internal
 */
export function negotiate(accept: string | undefined, list: boolean): Representation | undefined {
  if (accept === undefined || accept.trim() === '') return 'object';
  for (const range of accept.split(',')) {
    const [type = '', ...rawParams] = range.split(';').map((s) => s.trim());
    const params = new Map(rawParams.map((p) => p.split('=').map((s) => s.trim()) as [string, string]));
    if (type !== 'application/json' && type !== '*/*' && type !== 'application/*') continue;
    const as = params.get('as');
    if (as === undefined) return 'object';
    if (params.get('g') !== 'meta.k8s.io' || (params.get('v') !== 'v1' && params.get('v') !== 'v1beta1')) continue;
    if (as === (list ? 'PartialObjectMetadataList' : 'PartialObjectMetadata') && params.get('v') === 'v1') return 'metadata';
    if (as === 'Table') return 'table';
  }
  return undefined;
}
