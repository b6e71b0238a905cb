// Documents finished where their rows are read (Db.readDocument): on SQLite on the read thread, so
// that neither the rows nor the text made of them pass through the event loop; elsewhere on it.
// Each is a function of a context (sent along with the read) and the rows column by column.
import { seriesCsv, seriesJson, type SeriesHead } from '../telemetry/series-documents';

export const READ_DOCUMENTS = {
  'telemetry-json': seriesJson,
  'telemetry-csv': seriesCsv,
} satisfies Record<
  string,
  (context: SeriesHead, columns: readonly ArrayLike<unknown>[], count: number) => string
>;

export type ReadDocumentName = keyof typeof READ_DOCUMENTS;

/** Which document to make of a read's rows, and what it needs besides them. */
export interface ReadDocument {
  name: ReadDocumentName;
  context: Parameters<(typeof READ_DOCUMENTS)[ReadDocumentName]>[0];
}

/** A finished document: its bytes (UTF-8) and their strong ETag. */
export interface DocumentBytes {
  bytes: Buffer;
  etag: string;
}

/** The text of `document` from rows column by column. */
export function documentText(
  document: ReadDocument,
  columns: readonly ArrayLike<unknown>[],
  count: number,
): string {
  return READ_DOCUMENTS[document.name](document.context, columns, count);
}
