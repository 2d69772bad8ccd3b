/**
 * A card of the Statistics screens: a section named by its heading, with the heading's controls (the week/month
 * switch) beside it when it has any. Every block of both screens — the year in review, the charts of periods,
 * the rankings, the devices — is one.
 */
import type { ComponentChildren } from 'preact';

export function StatsCard({
  id,
  title,
  tools,
  class: className,
  marker,
  children,
}: {
  /** The heading's id, which names the section. */
  id: string;
  title: ComponentChildren;
  tools?: ComponentChildren;
  class?: string;
  /** Names the section for the tests: `data-devices`. */
  marker?: string;
  children: ComponentChildren;
}) {
  const heading = <h2 id={id}>{title}</h2>;
  return (
    <section
      class={className ? `card ${className}` : 'card'}
      aria-labelledby={id}
      {...(marker ? { [`data-${marker}`]: true } : {})}
    >
      {tools ? (
        <div class="stats-card__head">
          {heading}
          {tools}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}
