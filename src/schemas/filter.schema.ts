/**
 * Body of POST /series/list and POST /books/list (API.md §4 Advanced filtering). The condition tree is
 * accepted as a JSON object here and checked node by node by src/catalog/filters.ts, which bounds its
 * depth before walking it and answers each mistake with its path, field and operator.
 */
import { z } from '@hono/zod-openapi';
import { FILTER_OPERATORS, MAX_CONDITION_DEPTH, MAX_CONDITION_LEAVES } from '../catalog/filters';
import { acceptTwins } from '../lib/body';

export const ConditionSchema = z.record(z.string(), z.unknown()).openapi('FilterCondition', {
  description:
    `A leaf \`{"<field>": {"operator": "<op>", "value": "<string>"}}\` or a node \`{"allOf": [...]}\` / ` +
    `\`{"anyOf": [...]}\`. Operators: ${FILTER_OPERATORS.join(', ')}; isNull and isNotNull take no value; ` +
    'lessThan and greaterThan compare numbers and dates (YYYY-MM-DD), and a number may be a JSON number. ' +
    `At most ${MAX_CONDITION_DEPTH} levels and ${MAX_CONDITION_LEAVES} field tests.`,
  example: {
    allOf: [
      { readStatus: { operator: 'isNot', value: 'read' } },
      { anyOf: [{ genre: { operator: 'is', value: 'Shonen' } }, { name: { operator: 'beginsWith', value: 'One' } }] },
    ],
  },
});

export const FilterBodySchema = acceptTwins(
  z.strictObject({
    condition: ConditionSchema.optional(),
    fullTextSearch: z
      .string()
      .max(500)
      .optional()
      .openapi({ description: 'Prefix- and diacritic-insensitive full-text terms, ANDed with the condition' }),
  }),
).openapi('ListFilter');
export type FilterBody = z.infer<typeof FilterBodySchema>;
