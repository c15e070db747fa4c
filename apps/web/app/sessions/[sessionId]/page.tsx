import { SessionPage } from "~/components/session/session-page";

export const metadata = { title: "Session · Handoff" };

export default async function Page({ params }: { params: Promise<{ sessionId: string }> }) {
  const { sessionId } = await params;
  return <SessionPage key={sessionId} sessionId={sessionId} />;
}
