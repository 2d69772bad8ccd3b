/**
 * A labelled form input; the label is always visible (no placeholder-only fields) and the hint is tied
 * to the input with aria-describedby, so screen readers read it without it becoming part of the name.
 */
import type { InputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';

export function Field({
  label,
  hint,
  ...input
}: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div class="field">
      <label class="field__label" for={id}>
        {label}
      </label>
      <input class="field__input" id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <span class="field__hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}
