export default function Home() {
  return (
    <main>
      <h1>Handoff</h1>
      <p>The service is running. The dashboard arrives in a later release; the API health is at <a href="/api/health">/api/health</a>.</p>
    </main>
  );
}
