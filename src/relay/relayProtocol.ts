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
  | {
      /** Start a GET on a new stream. */
      readonly op: 'open';
      /** The stream's id, chosen by the page; it tags the stream's frames and messages. */
      readonly id: number;
      /** The request's path and query, e.g. `/api/v1/configmaps?watch=1`. */
      readonly path: string;
      /** The `Accept` header to send. */
      readonly accept: string;
      /** The page's bearer token, sent upstream as `Authorization`; absent: none. */
      readonly token?: string;
    }
  | {
      /** Abort the stream's GET. */
      readonly op: 'cancel';
      /** The stream to abort. */
      readonly id: number;
    }
  | {
      /** The page consumed bytes of the stream: that many more may come. */
      readonly op: 'credit';
      /** The stream credited. */
      readonly id: number;
      /** How many bytes the page consumed. */
      readonly bytes: number;
    };

/** A control message from the relay to the page (the body's bytes travel in binary frames). */
export type RelayResponseMessage =
  | {
      /** The upstream response head arrived. */
      readonly op: 'head';
      /** The stream it answers. */
      readonly id: number;
      /** The HTTP status. */
      readonly status: number;
      /** The headers passed on (`content-type`, `content-length`, `retry-after`), lower-case. */
      readonly headers: Readonly<Record<string, string>>;
    }
  | {
      /** The stream's body is complete. */
      readonly op: 'end';
      /** The stream that ended. */
      readonly id: number;
    }
  | {
      /** The stream failed (the API server could not be reached, or its response was cut short). */
      readonly op: 'error';
      /** The stream that failed. */
      readonly id: number;
      /** What went wrong, for people. */
      readonly message: string;
      /** Node's error code, e.g. `ECONNRESET`, when there is one. */
      readonly code?: string;
    };

/** The response headers the relay passes on (what the reader of a LIST or WATCH looks at). */
export const relayedHeaders = ['content-type', 'content-length', 'retry-after'] as const;
