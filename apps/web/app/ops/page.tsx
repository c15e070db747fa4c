import { OpsPage } from "~/components/ops/ops-page";

export const metadata = { title: "Ops · Handoff" };

export default function Page() {
  return <OpsPage />;
}
