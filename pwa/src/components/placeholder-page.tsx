// Stand-in for a signed-in screen whose real content is still being built.
import type { ReactNode } from 'react';

export function PlaceholderPage({ heading, children }: { heading: string; children?: ReactNode }) {
  return (
    <section className="placeholder-page">
      <div className="card">
        <h2>{heading}</h2>
        {children ?? <p>This page is coming soon.</p>}
      </div>
    </section>
  );
}
