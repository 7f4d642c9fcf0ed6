import { ApiError, qs } from '../../../lib/api.ts';
import { historyApiQuery, type HistoryView } from '../lib/history-params.ts';
import { alertsPath } from './alerts-path.ts';

export interface ExportProgress {
  /** Rows received so far. */
  rows: number;
  /** Rows the file will hold (the server's `x-total-count`), or null when it did not say. */
  total: number | null;
}

export interface ExportedFile {
  blob: Blob;
  filename: string;
  rows: number;
}

const QUOTE = 0x22;
const LF = 0x0a;

/**
 * Counts the records of a CSV as its UTF-8 bytes arrive: a line feed outside quotes ends one. A quoted cell may hold
 * line breaks (RFC 4180) and its own quotes come doubled, so toggling on every quote keeps track; neither byte occurs
 * inside a multi-byte UTF-8 character.
 */
export function csvRecordCounter() {
  let quoted = false;
  let records = 0;
  return (bytes: Uint8Array) => {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      if (b === QUOTE) quoted = !quoted;
      else if (b === LF && !quoted) records++;
    }
    return records;
  };
}

/** The file name the server gave in `content-disposition`, else a plain one. */
export const filenameOf = (disposition: string | null) => /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? 'alert-history.csv';

/**
 * Downloads the CSV export of the history as the view selects it (GET …/alerts/history/export), read as it streams
 * in: `onProgress` hears the rows received against the total at most every 100 ms, and once at the end. Throws
 * ApiError when refused (400, 404, 503) or the network fails; an AbortError when `signal` cancels it.
 */
export async function downloadAlertHistory(tenantId: string, view: HistoryView, onProgress: (p: ExportProgress) => void, signal?: AbortSignal): Promise<ExportedFile> {
  let res: Response;
  try {
    res = await fetch(`/api${alertsPath(tenantId)}/history/export${qs(historyApiQuery(view, Date.now()))}`, { credentials: 'same-origin', signal });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'network', 'Network error: the server could not be reached');
  }
  if (!res.ok || !res.body) {
    const err = ((await res.json().catch(() => null)) as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | null)?.error;
    throw new ApiError(res.status, err?.code ?? 'http_error', err?.message ?? `Request failed (${res.status})`, err?.fields ?? {});
  }
  const header = Number(res.headers.get('x-total-count'));
  const total = res.headers.has('x-total-count') && Number.isInteger(header) && header >= 0 ? header : null;
  const count = csvRecordCounter();
  const parts: Uint8Array[] = [];
  const reader = res.body.getReader();
  let rows = 0;
  let told = 0;
  onProgress({ rows, total });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) {
        void reader.cancel();
        throw new DOMException('The export was cancelled', 'AbortError');
      }
      if (done) break;
      parts.push(value);
      rows = Math.max(0, count(value) - 1); // the header is a record too
      if (Date.now() - told >= 100) {
        told = Date.now();
        onProgress({ rows, total });
      }
    }
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    // The connection broke off mid-file (the server went away): what came is not the whole export.
    throw new ApiError(0, 'network', 'The download broke off before the end');
  }
  onProgress({ rows, total });
  return { blob: new Blob(parts as BlobPart[], { type: 'text/csv;charset=utf-8' }), filename: filenameOf(res.headers.get('content-disposition')), rows };
}

/** Hands a file to the browser's downloads, as a link with `download` would. */
export function saveFile({ blob, filename }: Pick<ExportedFile, 'blob' | 'filename'>) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The download has taken the file by then; the object URL would otherwise hold it for the page's lifetime.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
