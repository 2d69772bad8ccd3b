import type { DatabaseSync } from 'node:sqlite';
export function recountSeriesReadProgress(db: DatabaseSync, userId: string): void;
