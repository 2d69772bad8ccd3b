/** Structured JSON logs, one object per line, always carrying the request id. */
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * An API key's secret part, wherever it shows in a line (a Kobo's key is in every path it calls): logs keep
 * the key's public prefix, never the secret.
 */
const API_KEY_SECRET = /(lbx_[a-z0-9]{8}_)[A-Za-z0-9]+/g;

export function createLogger(base: Record<string, unknown>, minimum: Level = 'info'): Logger {
  const write =
    (level: Level) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (ORDER[level] < ORDER[minimum]) return;
      const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...base, ...fields }).replace(
        API_KEY_SECRET,
        '$1***',
      );
      if (level === 'error') console.error(line);
      else if (level === 'warn') console.warn(line);
      else console.log(line);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
