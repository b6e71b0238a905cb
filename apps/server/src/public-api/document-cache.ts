// A few hot documents kept built (the station list, the latest packets per satellite). An entry
// is dropped by an event (a stored packet, a station change) and then rebuilt by the next request,
// which waits for it: an answer never predates the event that made it stale. Changes that come
// without an event (pings updating lastSeen, CRC-error packets) are picked up after `ttlMs`; an
// entry past its TTL is still served while one rebuild runs behind it. Concurrent requests share
// one build.
//
// A document that events drop many times a second (the station list and the packet lists while
// the network is live) would be rebuilt for nearly every request, and a build overtaken by an
// event before it finishes would never be served. With `minRebuildMs`, an entry dropped by an
// event is rebuilt at most that often: the first request after a quiet spell still waits for a
// fresh build, but an entry built less than `minRebuildMs` ago (or with a rebuild running) is
// served as it is while one rebuild runs behind it once the interval has passed. An answer then
// lags the newest event by at most the interval plus one build. A finished build is always kept
// when it is newer than the entry, even if an event overtook it (it is kept as dropped).
//
// Entries past their TTL are refreshed behind the kept one, at most `maxRefreshes` at once per
// cache, the others waiting their turn: many entries built together (a burst of first requests,
// a restart) expire together, and rebuilding them all at once would queue thousands of reads
// before every other query of the process (PostgreSQL's pool has ten connections). A refresh
// that an event or a request's own rebuild made needless by its turn is skipped. With
// `refreshMany`, each of those refreshes covers a batch of entries with one build.

/** Refreshes of entries past their TTL running at once per cache, unless the cache sets its own. */
const DEFAULT_MAX_REFRESHES = 4;

interface Entry<T> {
  value: T;
  generation: number;
  builtAt: number;
}

interface Build<T> {
  generation: number;
  promise: Promise<T>;
}

export class DocumentCache<K, T> {
  private readonly entries = new Map<K, Entry<T>>();
  private readonly building = new Map<K, Build<T>>();
  private readonly generations = new Map<K, number>();
  /** Bumped by invalidateAll: an entry of an older epoch is stale whatever its key. */
  private epoch = 0;

  /** keys with a rebuild scheduled for the end of their interval */
  private readonly scheduled = new Set<K>();
  /** entries past their TTL waiting for a refresh, oldest first, and refreshes running */
  private readonly refreshes = new Map<K, () => Promise<T>>();
  private refreshing = 0;
  /** a start of queued refreshes is scheduled */
  private refreshPending = false;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly options: {
      minRebuildMs?: number;
      maxRefreshes?: number;
      /**
       * Refreshes up to `size` entries past their TTL with one build (one read for them all)
       * rather than a build each; a key it leaves out keeps its entry as it is.
       */
      refreshMany?: { size: number; build: (keys: K[]) => Promise<Map<K, T>> };
    } = {},
  ) {}

  private generationOf(key: K): number {
    return this.epoch * 2 ** 32 + (this.generations.get(key) ?? 0);
  }

  invalidate(key: K): void {
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }

  invalidateAll(): void {
    this.epoch += 1;
    this.generations.clear();
  }

  /**
   * The kept document for `key` when `get` would answer it at once: current (no event since it
   * was built) and within its TTL, or past it when `refresh` is given (which then refreshes it
   * behind the answer, as `get` does); else undefined. Lets a hot read answer without awaiting.
   */
  peek(key: K, refresh?: () => Promise<T>): T | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.generation !== this.generationOf(key)) return undefined;
    if (performance.now() - entry.builtAt > this.ttlMs) {
      if (!refresh) return undefined;
      this.refresh(key, refresh);
    }
    return entry.value;
  }

  /**
   * The newest document built for `key`, current or not: a build can hand it out again when what
   * it read has not changed (its bytes, hash and compressions are then not made again).
   */
  latest(key: K): T | undefined {
    return this.entries.get(key)?.value;
  }

  /** The document for `key`; a build that throws (e.g. not found) keeps nothing. */
  get(key: K, build: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && entry.generation === this.generationOf(key)) {
      // Served past its TTL until its refresh is done.
      if (performance.now() - entry.builtAt > this.ttlMs) this.refresh(key, build);
      return Promise.resolve(entry.value);
    }
    const minRebuildMs = this.options.minRebuildMs ?? 0;
    if (entry && minRebuildMs > 0) {
      const age = performance.now() - entry.builtAt;
      if (age < minRebuildMs || this.building.has(key)) {
        this.rebuildAfter(key, build, Math.max(0, minRebuildMs - age));
        return Promise.resolve(entry.value);
      }
    }
    return this.rebuild(key, build);
  }

  /**
   * Queues one refresh of `key` (past its TTL) unless one is queued or a build is running. They
   * start on a later turn of the event loop, not in the request that found the entry old: the
   * requests of one turn queue theirs together (a batch, with `refreshMany`).
   */
  private refresh(key: K, build: () => Promise<T>): void {
    if (this.refreshes.has(key) || this.building.has(key)) return;
    this.refreshes.set(key, build);
    if (this.refreshPending) return;
    this.refreshPending = true;
    setTimeout(() => {
      this.refreshPending = false;
      this.nextRefreshes();
    }, 0).unref();
  }

  /** Starts queued refreshes (a batch each with `refreshMany`) while fewer than `maxRefreshes` run. */
  private nextRefreshes(): void {
    const max = this.options.maxRefreshes ?? DEFAULT_MAX_REFRESHES;
    const many = this.options.refreshMany;
    while (this.refreshing < max && this.refreshes.size > 0) {
      const due: [K, () => Promise<T>][] = [];
      for (const [key, build] of this.refreshes) {
        if (due.length >= (many?.size ?? 1)) break;
        this.refreshes.delete(key);
        const entry = this.entries.get(key);
        // Dropped by an event since (the next request rebuilds it), or built again meanwhile.
        if (!entry || entry.generation !== this.generationOf(key)) continue;
        if (performance.now() - entry.builtAt <= this.ttlMs) continue;
        due.push([key, build]);
      }
      const [first] = due;
      if (!first) continue;
      this.refreshing += 1;
      const done = many
        ? this.rebuildMany(
            due.map(([key]) => key),
            many.build,
          )
        : this.rebuild(first[0], first[1]);
      // A failure is reported to the next caller that waits for a build.
      void done
        .catch(() => undefined)
        .finally(() => {
          this.refreshing -= 1;
          this.nextRefreshes();
        });
    }
  }

  /** Rebuilds `keys` with one build; each is kept as `rebuild` keeps it. */
  private async rebuildMany(keys: K[], build: (keys: K[]) => Promise<Map<K, T>>): Promise<void> {
    const generations = keys.map((key) => this.generationOf(key));
    const builtAt = performance.now();
    const values = await build(keys);
    keys.forEach((key, i) => {
      const value = values.get(key);
      if (value === undefined) return;
      const kept = this.entries.get(key);
      if (!kept || kept.builtAt <= builtAt)
        this.store(key, { value, generation: generations[i] as number, builtAt });
    });
  }

  /** One rebuild of `key` after `delayMs` (and after any build still running). */
  private rebuildAfter(key: K, build: () => Promise<T>, delayMs: number): void {
    if (this.scheduled.has(key)) return;
    this.scheduled.add(key);
    const start = () => {
      const running = this.building.get(key);
      const after = running ? running.promise.catch(() => undefined) : Promise.resolve();
      void after.then(() => {
        this.scheduled.delete(key);
        this.rebuild(key, build).catch(() => undefined);
      });
    };
    setTimeout(start, delayMs).unref();
  }

  private rebuild(key: K, build: () => Promise<T>): Promise<T> {
    const generation = this.generationOf(key);
    const running = this.building.get(key);
    if (running && running.generation === generation) return running.promise;
    const builtAt = performance.now();
    const promise = build().then(
      (value) => {
        if (this.building.get(key)?.promise === promise) this.building.delete(key);
        const kept = this.entries.get(key);
        if (!kept || kept.builtAt <= builtAt) this.store(key, { value, generation, builtAt });
        return value;
      },
      (err: unknown) => {
        if (this.building.get(key)?.promise === promise) this.building.delete(key);
        throw err;
      },
    );
    this.building.set(key, { generation, promise });
    return promise;
  }

  private store(key: K, entry: Entry<T>): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    // Oldest first in insertion order; the key space is bounded (satellites), this is a backstop.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }
}
