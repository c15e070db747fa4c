import { InspectorPage } from "~/components/inspector/inspector-page";

export const metadata = { title: "Inspector · Handoff" };

export default async function Page({ params }: { params: Promise<{ sessionId: string; agentId: string }> }) {
  const { sessionId, agentId } = await params;
  return <InspectorPage key={sessionId} sessionId={sessionId} agentId={agentId} />;
}
