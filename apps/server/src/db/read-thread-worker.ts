// The SQLite read thread (read-thread.ts): runs the long public reads (leaderboard aggregates,
// telemetry series) on a connection of its own, so that SQLite's synchronous work on them does not
// hold the event loop that also serves every other request. The connection only reads (query_only)
// and sees what other connections have committed (WAL). Statements are prepared once per SQL text.
// A read asking for a document (read-documents.ts) is answered with its finished bytes and ETag.
import SQLite from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { strongEtag } from '../lib/etag';
import { documentText, type ReadDocument } from './read-documents';
import type { ColumnRead, ReadReply, ReadRequest } from './read-thread';

const port = parentPort;
if (!port) throw new Error('the SQLite read thread must run as a worker thread');
const { file } = workerData as { file: string };

const sqlite = new SQLite(file, { fileMustExist: true });
sqlite.pragma('busy_timeout = 5000');
sqlite.pragma('query_only = ON');
// Checkpoints are the writer's and the checkpointer's (network/ingest/sqlite/), never a reader's.
sqlite.pragma('wal_autocheckpoint = 0');

/** Prepared statements by SQL text; the reads are a few fixed queries, this bound is a backstop. */
const MAX_STATEMENTS = 64;
const statements = new Map<string, SQLite.Statement>();

/** A statement answering rows as arrays, or (`pluck`) a one-column one answering plain values. */
function statement(text: string, pluck = false): SQLite.Statement {
  const key = pluck ? `pluck\n${text}` : text;
  let s = statements.get(key);
  if (!s) {
    s = sqlite.prepare(text);
    if (!s.reader) throw new Error('the read thread runs reads only');
    if (pluck) s.pluck(true);
    else s.raw(true);
    if (statements.size >= MAX_STATEMENTS) statements.clear();
    statements.set(key, s);
  }
  return s;
}

/**
 * One statement per column, each answering plain values (no array per row, which costs more than
 * reading the row), all in one read transaction: one snapshot, so the columns line up.
 */
const readColumns = sqlite.transaction((columns: readonly ColumnRead[]) =>
  columns.map(({ sql, parameters }) => statement(sql, true).all(...parameters)),
);

/**
 * The rows column by column, a column of numbers only as a Float64Array (moved, not copied): cloning
 * thousands of small row arrays between threads costs more than the read itself.
 */
function columnMajor(width: number, rows: unknown[][]): (unknown[] | Float64Array)[] {
  const out: (unknown[] | Float64Array)[] = [];
  for (let c = 0; c < width; c++) {
    let numbers = true;
    for (const row of rows)
      if (typeof row[c] !== 'number') {
        numbers = false;
        break;
      }
    if (numbers) {
      const column = new Float64Array(rows.length);
      for (let r = 0; r < rows.length; r++) column[r] = (rows[r] as unknown[])[c] as number;
      out.push(column);
    } else out.push(rows.map((row) => row[c]));
  }
  return out;
}

/** The document's bytes, moved to the event loop's thread with their ETag. */
function answerDocument(
  id: number,
  document: ReadDocument,
  columns: readonly ArrayLike<unknown>[],
  count: number,
) {
  const text = Buffer.from(documentText(document, columns, count));
  // Small buffers share Node's pool: those are copied into memory of their own before moving.
  const bytes = text.byteLength === text.buffer.byteLength ? text : new Uint8Array(text);
  port?.postMessage({ id, bytes, etag: strongEtag(bytes) } satisfies ReadReply, [
    bytes.buffer as ArrayBuffer,
  ]);
}

port.on('message', (request: ReadRequest) => {
  if ('close' in request) {
    sqlite.close();
    port.postMessage({ closed: true } satisfies ReadReply);
    return;
  }
  try {
    if (request.document && request.columns) {
      const columns = readColumns(request.columns);
      const count = columns[0]?.length ?? 0;
      if (columns.some((c) => c.length !== count)) throw new Error('columns of unequal length');
      answerDocument(request.id, request.document, columns, count);
      return;
    }
    const s = statement(request.sql);
    const rows = s.all(...request.parameters) as unknown[][];
    const values = columnMajor(s.columns().length, rows);
    if (request.document) {
      answerDocument(request.id, request.document, values, rows.length);
      return;
    }
    port.postMessage(
      {
        id: request.id,
        columns: s.columns().map((c) => c.name),
        count: rows.length,
        values,
      } satisfies ReadReply,
      values.flatMap((v) => (v instanceof Float64Array ? [v.buffer as ArrayBuffer] : [])),
    );
  } catch (err) {
    port.postMessage({
      id: request.id,
      error: err instanceof Error ? err.message : String(err),
    } satisfies ReadReply);
  }
});
port.postMessage({ ready: true } satisfies ReadReply);
