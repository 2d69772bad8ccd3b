import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger';

describe('log lines (a Kobo’s API key is in every path it calls)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keep an API key’s public prefix and never its secret, wherever the key appears', () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => lines.push(line));
    vi.spyOn(console, 'error').mockImplementation((line: string) => lines.push(line));
    const secret = 'Abc123xyzAbc123xyzAbc123xyzAbc123xyzAbc1234';
    const logger = createLogger({ requestId: 'r1' });
    logger.info('request', { path: `/kobo/lbx_ab12cd34_${secret}/v1/library/sync` });
    logger.error('unhandled error', { stack: `at /kobo/lbx_ab12cd34_${secret}/v1/initialization` });
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(secret);
      expect(line).toContain('lbx_ab12cd34_***');
    }
  });
});
