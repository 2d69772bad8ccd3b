/**
 * Work that runs after the answer (waitUntil) and must not be lost — a progress write, a throttle counter
 * given back — is tried again a few times, with a growing pause, before its failure is handed to the caller's
 * log (issue 30: moving work off the answer's path must never drop it silently).
 */
export const RETRY_ATTEMPTS = 3;
const FIRST_DELAY_MS = 200;

export async function withRetries<T>(work: () => Promise<T>, attempts = RETRY_ATTEMPTS): Promise<T> {
  for (let attempt = 1, delay = FIRST_DELAY_MS; ; attempt++, delay *= 2) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
