import type { ReactNode } from "react";

/** A titled panel; `actions` sit at the right of its title bar. */
export function Card({
  title,
  actions,
  children,
  className,
  id,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section className={`card${className ? ` ${className}` : ""}`} aria-labelledby={headingId} id={id}>
      <header className="card-head">
        <h2 id={headingId}>{title}</h2>
        {actions ? <div className="card-actions">{actions}</div> : null}
      </header>
      <div className="card-body">{children}</div>
    </section>
  );
}
