import { describe, expect, it } from 'vitest';
import { seriesCondition } from './series-grid';

describe('the series filter sent to POST /series/list', () => {
  it('is absent when nothing narrows the list', () => {
    expect(seriesCondition(null, { status: '', publisher: '' })).toBeUndefined();
  });

  it('combines library, read status and publisher with allOf', () => {
    expect(seriesCondition('lib-1', { status: 'in_progress', publisher: 'Dark' })).toEqual({
      allOf: [
        { libraryId: { operator: 'is', value: 'lib-1' } },
        { readStatus: { operator: 'is', value: 'in_progress' } },
        { publisher: { operator: 'contains', value: 'Dark' } },
      ],
    });
  });
});
