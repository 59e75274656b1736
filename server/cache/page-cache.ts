/**
 * Serialised list pages of one process, each labelled with the version of its scope that the
 * page's own query saw or that was read before it (`list_counts.version`, moved by triggers on
 * every change a page shows).
 * A page is answered from here only while its scope's version is unchanged, so a change made by
 * any process shows at once; a page read after the label can only be newer than it, never older.
 * Bounded by total size: when full, the oldest pages go first.
 */
export class PageCache {
  readonly #pages = new Map<string, { version: number; body: string }>();
  #chars = 0;

  constructor(readonly maxChars = 16_000_000) {}

  /** The page stored under `key` for exactly `version`, if any. */
  get(key: string, version: number): string | undefined {
    const page = this.#pages.get(key);
    return page !== undefined && page.version === version ? page.body : undefined;
  }

  /** Store a page read at (or after) `version`, replacing any older one. */
  set(key: string, version: number, body: string): void {
    this.#drop(key);
    if (body.length > this.maxChars) return;
    while (this.#chars + body.length > this.maxChars) {
      const oldest = this.#pages.keys().next();
      if (oldest.done) break;
      this.#drop(oldest.value);
    }
    this.#pages.set(key, { version, body });
    this.#chars += body.length;
  }

  /**
   * The JSON of a page. When a page is stored under `key`, `currentVersion()` decides whether
   * it is still good (one cheap query); otherwise `build()` reads the page together with the
   * version it saw (or one read before it) and the page is stored under that version. A first
   * read thus costs the page's own query only.
   */
  async json(
    key: string,
    currentVersion: () => Promise<number>,
    build: () => Promise<{ page: unknown; version: number }>,
  ): Promise<string> {
    if (this.#pages.has(key)) {
      const cached = this.get(key, await currentVersion());
      if (cached !== undefined) return cached;
    }
    const { page, version } = await build();
    const body = JSON.stringify(page);
    this.set(key, version, body);
    return body;
  }

  /** How many pages are stored. */
  get size(): number {
    return this.#pages.size;
  }

  #drop(key: string): void {
    const page = this.#pages.get(key);
    if (page === undefined) return;
    this.#chars -= page.body.length;
    this.#pages.delete(key);
  }
}
