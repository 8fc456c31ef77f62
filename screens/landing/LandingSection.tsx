import type { ReactNode } from 'react';

/**
 * A landing section under its own heading. The heading names the section for screen readers
 * (aria-labelledby), so each id is the section's name and unique on the page.
 */
export function LandingSection({
  name,
  title,
  className = 'landing-section',
  titleClassName = 'landing-section__title',
  children,
}: {
  name: string;
  title: string;
  className?: string;
  titleClassName?: string;
  children: ReactNode;
}) {
  const titleId = `${name}-title`;
  return (
    <section className={className} aria-labelledby={titleId}>
      <h2 id={titleId} className={titleClassName}>
        {title}
      </h2>
      {children}
    </section>
  );
}
