/** The health check's question to the database: does it answer a trivial statement? */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';

export class HealthRepository {
  constructor(private readonly db: Database) {}

  async ping(): Promise<void> {
    await this.db.run(sql`select 1`);
  }
}
