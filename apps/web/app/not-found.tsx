import Link from "next/link";

export default function NotFound() {
  return (
    <div className="center-note">
      <h1>Not found</h1>
      <p>
        Nothing lives at this address. <Link href="/">Back to the sessions</Link>.
      </p>
    </div>
  );
}
