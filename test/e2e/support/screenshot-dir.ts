import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Where screenshot tests write: `npm run screenshots` sets LONGBOX_SCREENSHOTS=write and the pictures land
 * in docs/screenshots (committed, shown in the README); under plain `npm test` the same screens are
 * checked but photographed into a temporary folder, so a test run never rewrites the committed images.
 */
export const SCREENSHOT_DIR =
  process.env.LONGBOX_SCREENSHOTS === 'write'
    ? path.resolve(import.meta.dirname, '..', '..', '..', 'docs', 'screenshots')
    : path.join(tmpdir(), 'longbox-screenshots');
