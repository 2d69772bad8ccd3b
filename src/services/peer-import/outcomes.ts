/**
 * What every import batch shares (docs/DECISIONS.md §Coming from Komga or Kavita): one answer per item it was
 * sent, and the rule that a batch naming one peer id twice is refused whole (a 400 naming the repeats), since
 * which of the two was meant cannot be told; and that a batch's writes are one transaction, refused whole with a
 * 409 when what they name changed after it was read.
 */
import { badRequest, conflict, isForeignKeyViolation } from '../../lib/errors';
import type { ImportsRepository } from '../../repositories/imports.repository';
import type { Statement } from '../../repositories/catalog-writer.repository';
import type { ImportOutcome } from '../../schemas/import.schema';

export const created = (foreignId: string, id: string): ImportOutcome => ({
  foreignId,
  id,
  outcome: 'created',
  reason: null,
});

export const merged = (foreignId: string, id: string, reason: string): ImportOutcome => ({
  foreignId,
  id,
  outcome: 'merged',
  reason,
});

/** Imported by an earlier run: nothing is written again. */
export const unchanged = (foreignId: string, id: string): ImportOutcome => ({
  foreignId,
  id,
  outcome: 'unchanged',
  reason: null,
});

export const skipped = (foreignId: string, reason: string): ImportOutcome => ({
  foreignId,
  id: null,
  outcome: 'skipped',
  reason,
});

/**
 * A batch naming a peer id twice is a 400 naming each repeat (`<field>.<index>.foreignId`). `kindOf` tells ids of
 * different kinds apart (Kavita numbers its collections and reading lists each from 1).
 */
export function assertDistinct<T extends { foreignId: string }>(
  field: string,
  items: readonly T[],
  kindOf: (item: T) => string = () => '',
): void {
  const seen = new Set<string>();
  const repeats = items.flatMap((item, index) => {
    const key = `${kindOf(item)}\n${item.foreignId}`;
    if (!seen.has(key)) {
      seen.add(key);
      return [];
    }
    return [{ path: `${field}.${index}.foreignId`, message: `repeats ${item.foreignId}` }];
  });
  if (repeats.length > 0) throw badRequest(`${field} names a peer id more than once`, repeats);
}

/** An import's timestamps as Longbox stores them (UTC with milliseconds), from any ISO 8601 instant. */
export const instant = (text: string): string => new Date(text).toISOString();

/**
 * Runs a batch's statements as one transaction. What they name was read before them: a row gone since (a library
 * or series deleted) or a sharing label made by someone else in between (the batch's insert of the same name is
 * skipped, and its grants name an id that was never made) fails a foreign key, and nothing is written: a 409
 * asking to send the batch again, which then reads what is there now.
 */
export async function runBatch(imports: ImportsRepository, statements: Statement[]): Promise<void> {
  try {
    await imports.run(statements);
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
    throw conflict('Something this batch names changed while it was imported; nothing was written. Send it again.');
  }
}
