/**
 * A form's submit: the browser's own submission stopped, the form's values read, the action run with a
 * busy flag (to disable the button), and whatever it throws kept as the error the form shows.
 */
import { useState } from 'preact/hooks';

export function useFormAction(action: (form: FormData, element: HTMLFormElement) => Promise<void>) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: Event) {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    setError(null);
    setBusy(true);
    try {
      await action(new FormData(element), element);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return { error, busy, onSubmit };
}
