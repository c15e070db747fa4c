import type { ReactNode } from "react";
import { AppHeader } from "~/components/ui/app-header";
import { ServiceDefaultsProvider } from "~/components/ui/service-defaults";
import { env } from "~/env";
import { TRPCReactProvider } from "~/trpc/react";
import "./globals.css";

export const metadata = { title: "Handoff", description: "Hosted agent sessions" };

// Every page is live data and reads the service's environment: render per request, never at build time.
export const dynamic = "force-dynamic";

export default function RootLayout({ children }: { children: ReactNode }) {
  const defaultModel = env().HANDOFF_MODEL;
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <TRPCReactProvider>
          <ServiceDefaultsProvider defaultModel={defaultModel}>
            <AppHeader defaultModel={defaultModel} />
            <main id="main" className="page">
              {children}
            </main>
          </ServiceDefaultsProvider>
        </TRPCReactProvider>
      </body>
    </html>
  );
}
