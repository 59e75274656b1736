import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/** PostgreSQL's answer when a table changed under a prepared `select *` (SQLSTATE 0A000). */
const STALE_PLAN = 'cached plan must not change result type';

/**
 * A `pg` pool for Kysely that runs every parameterised statement as a named prepared statement,
 * so each connection parses and plans a query's text once instead of on every call (planning
 * cost more than executing a list page). Names are handed out per distinct SQL text up to
 * `capacity` texts; any text beyond that runs unnamed as before. Statements without parameters
 * (migrations, `begin`, `commit`) keep the simple protocol, which allows several commands.
 * When a schema change invalidates a prepared row shape, the names move to a new generation
 * and the statement runs again once.
 */
export class PreparedPool implements PostgresPool {
  readonly #names = new Map<string, string>();
  #generation = 0;

  constructor(
    readonly pool: pg.Pool,
    readonly capacity = 500,
  ) {}

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    return {
      // biome-ignore lint/suspicious/noExplicitAny: one implementation behind both overloads
      query: ((text: string | PostgresCursor<unknown>, parameters?: ReadonlyArray<unknown>): any =>
        typeof text === 'string'
          ? this.#run(client, text, parameters ?? [])
          : client.query(text as never)) as PostgresPoolClient['query'],
      release: () => client.release(),
    };
  }

  end(): Promise<void> {
    return this.pool.end();
  }

  #name(text: string): string | undefined {
    const known = this.#names.get(text);
    if (known !== undefined || this.#names.size >= this.capacity) return known;
    const name = `fleet_${this.#generation}_${this.#names.size}`;
    this.#names.set(text, name);
    return name;
  }

  async #run<R>(
    client: pg.PoolClient,
    text: string,
    parameters: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> {
    const values = [...parameters];
    const name = values.length > 0 ? this.#name(text) : undefined;
    if (name === undefined) return (await client.query(text, values)) as never;
    try {
      return (await client.query({ name, text, values })) as never;
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes(STALE_PLAN)) throw error;
      this.#generation += 1;
      this.#names.clear();
      return (await client.query(text, values)) as never;
    }
  }
}
