/** A labelled form input; the label is always visible (no placeholder-only fields). */
import type { InputHTMLAttributes } from 'preact';

export function Field({
  label,
  hint,
  ...input
}: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label class="field">
      <span class="field__label">{label}</span>
      <input class="field__input" {...input} />
      {hint && <span class="field__hint">{hint}</span>}
    </label>
  );
}
