import Link from "next/link";
import { NavLinks } from "./nav-links";

/** The bar on every page: where you are, and which model the service runs by default. */
export function AppHeader({ defaultModel }: { defaultModel: string }) {
  const sim = defaultModel.startsWith("sim:");
  return (
    <header className="app-header">
      <Link href="/" className="brand">
        <span className="brand-mark" aria-hidden="true">
          ⇄
        </span>
        Handoff
      </Link>
      <NavLinks />
      <div className="app-header-model" title="HANDOFF_MODEL: the model agents use when neither the session nor the profile names one">
        default model <span className="mono">{defaultModel}</span>
        {sim ? <span className="badge tone-warn">{defaultModel === "sim:demo" ? "scripted demo, not a real model" : "model-sim"}</span> : null}
      </div>
    </header>
  );
}
