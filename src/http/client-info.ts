import type { Context } from 'hono';
import type { ClientInfo } from '../services/authentication.service';

/** The client's address (Cloudflare sets CF-Connecting-IP) and user agent, for sessions and throttling. */
export function clientInfo(c: Context): ClientInfo {
  return {
    address: c.req.header('CF-Connecting-IP') ?? c.req.header('X-Real-IP') ?? null,
    userAgent: c.req.header('User-Agent') ?? null,
  };
}
