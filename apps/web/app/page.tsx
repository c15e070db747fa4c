import { SessionsPage } from "~/components/sessions/sessions-page";

export const metadata = { title: "Sessions · Handoff" };

export default function Home() {
  return <SessionsPage />;
}
