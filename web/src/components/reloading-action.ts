/**
 * An admin section's action on the rows it lists (create, change, delete): the error of the last action is the
 * one the section shows (cleared when the next starts), and the list is loaded again when an action succeeds so
 * the table shows what the server now holds.
 */
import { useState } from 'preact/hooks';

export function useReloadingAction(reload: () => void) {
  const [error, setError] = useState<unknown>(null);
  async function act(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
      reload();
    } catch (failure) {
      setError(failure);
    }
  }
  return { error, act };
}
