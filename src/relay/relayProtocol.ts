/**
 * The relay's wire protocol: many HTTP GETs (LIST pages, WATCH streams, discovery) of one page
 * over one WebSocket. Control messages are JSON text frames; response bytes are binary frames, a
 * 4-byte big-endian stream id and the bytes. The relay never parses a body: the page's reflector
 * reads the bytes as it reads a fetch body, so paging, bookmarks, 410, resume and streaming lists
 * are the same over the relay as over fetch.
 *
 * ```text
 * page  ─ open {id, path, accept, token?} ─►  relay ─ GET path (Authorization: Bearer token) ─► API server
 * page  ◄─ head {id, status, headers} ─────  relay ◄─ response head
 * page  ◄─ [id][bytes] … ─────────────────  relay ◄─ body, read only while the stream has credit
 * page  ─ credit {id, bytes} ─────────────►  relay   (the page consumed them: that many more may come)
 * page  ◄─ end {id} | error {id, message} ─  relay
 * page  ─ cancel {id} ────────────────────►  relay ─ aborts the GET
 * ```
 *
 * Flow control: the relay sends at most its window (`streamWindowBytes`) of a stream beyond what
 * the page has credited, and reads the upstream body only while there is room, so a busy stream
 * waits on its own credit (the API server's TCP window takes the pressure) and neither starves the
 * others nor grows the relay's memory: at most one window per open stream.
 */

/** A message from the page to the relay. */
export type RelayRequestMessage =
  | { readonly op: 'open'; readonly id: number; readonly path: string; readonly accept: string; readonly token?: string }
  | { readonly op: 'cancel'; readonly id: number }
  | { readonly op: 'credit'; readonly id: number; readonly bytes: number };

/** A control message from the relay to the page (the body's bytes travel in binary frames). */
export type RelayResponseMessage =
  | { readonly op: 'head'; readonly id: number; readonly status: number; readonly headers: Readonly<Record<string, string>> }
  | { readonly op: 'end'; readonly id: number }
  | { readonly op: 'error'; readonly id: number; readonly message: string; readonly code?: string };

/** The response headers the relay passes on (what the reader of a LIST or WATCH looks at). */
export const relayedHeaders = ['content-type', 'content-length', 'retry-after'] as const;
