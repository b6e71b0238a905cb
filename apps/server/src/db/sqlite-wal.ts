// The SQLite settings and checkpoint calls of the ingest's threads (network/ingest/sqlite/):
// the writer thread's connection, the checkpointer thread's own connection, and the main thread's
// once checkpoints are the checkpointer's job. The settings every connection gets are in connect.ts.
import SQLite from 'better-sqlite3';

/** The page cache of a connection, in KiB (SQLite's default is 2 MB). */
export function setPageCacheKib(sqlite: SQLite.Database, kib: number): void {
  sqlite.pragma(`cache_size = -${Math.floor(kib)}`);
}

/** Automatic checkpoints after a commit that leaves the WAL over `pages` pages; 0: never. */
export function setWalAutoCheckpoint(sqlite: SQLite.Database, pages: number): void {
  sqlite.pragma(`wal_autocheckpoint = ${Math.floor(pages)}`);
}

/** How long a statement waits for a lock another connection holds; 0: it fails at once. */
export function setBusyTimeout(sqlite: SQLite.Database, ms: number): void {
  sqlite.pragma(`busy_timeout = ${Math.floor(ms)}`);
}

/** `busy`: 1 when the checkpoint could not finish; `log`: pages in the WAL; `checkpointed`: copied. */
export type CheckpointRow = { busy: number; log: number; checkpointed: number };

/** Copies committed WAL frames into the database file (RESTART then has the WAL start again). */
export function checkpointWal(
  sqlite: SQLite.Database,
  mode: 'PASSIVE' | 'RESTART',
): CheckpointRow | undefined {
  return (sqlite.pragma(`wal_checkpoint(${mode})`) as CheckpointRow[])[0];
}

/**
 * A connection of its own to an existing database file that only checkpoints: no busy waits
 * (PASSIVE never waits anyway; a RESTART sets its own timeout) and never an automatic checkpoint.
 */
export function openCheckpointConnection(file: string): SQLite.Database {
  const sqlite = new SQLite(file, { fileMustExist: true, timeout: 0 });
  setWalAutoCheckpoint(sqlite, 0);
  return sqlite;
}
