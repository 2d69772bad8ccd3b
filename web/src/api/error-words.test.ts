/**
 * The API's field refusals as the screens say them (issue 31 point 11: a book's edit dialog showed
 * `year: Invalid input: expected number, received string`). The messages are zod's own, as the server's
 * 400 envelope carries them in `details`.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from './client';
import { refusalInWords } from './error-words';

const refusal = (details: unknown) => new ApiError(400, 'BadRequest', 'Invalid request', details);

describe('refusalInWords', () => {
  it('names the field as the form does and says what it must be', () => {
    expect(
      refusalInWords(refusal([{ path: 'year', message: 'Invalid input: expected number, received string' }])),
    ).toBe('Year must be a number');
    expect(refusalInWords(refusal([{ path: 'number', message: 'Too small: expected number to be >=0' }]))).toBe(
      'Number must be 0 or more',
    );
  });

  it('says which item of a list a refused field is in, and joins several', () => {
    const words = refusalInWords(
      refusal([
        { path: 'links.1.url', message: 'must be an http or https address' },
        { path: 'authors.0.name', message: 'Too small: expected string to have >=1 characters' },
      ]),
    );
    expect(words).toBe('Address (2) must be an http or https address · Name (1) must not be empty');
  });

  it('leaves a refusal without field details to its own message', () => {
    expect(refusalInWords(new ApiError(409, 'Conflict', 'Library paths overlap'))).toBeNull();
    expect(refusalInWords(refusal('not a list'))).toBeNull();
  });
});
