import { expect, test } from "./support/fixtures";
import { mutate } from "./support/trpc";

test("the ops page lists the running worker and a queue depth that changes", async ({ page }) => {
  await page.goto("/ops");
  const workers = page.getByRole("region", { name: /Workers/ });
  const worker = workers.locator('tr[data-state="running"]');
  await expect(worker).toHaveCount(1);
  await expect(worker).toContainText(/s ago/);
  await expect(worker).toContainText("/ 8"); // sessions held / concurrency
  const depth = page.getByTestId("queue-depth");
  await expect(depth).toHaveText("0");

  // A run that takes a few seconds, and two follow-ups that wait in the inbox until its turn ends.
  const { sessionId } = await mutate(page.request, "session.create", {
    mode: "interactive",
    model: "sim:paced",
    prompt: "Work slowly.",
  });
  await expect(worker).toContainText("1 / 8");
  for (const text of ["And then this.", "And that."]) await mutate(page.request, "session.followup", { sessionId, text });
  await expect(depth).toHaveText("2");
  await expect(page.getByTestId("queue-oldest")).not.toHaveText("—");
  await expect(depth).toHaveText("0", { timeout: 20_000 });
  await expect(page.locator("figure", { hasText: "Admissions" }).locator("rect").first()).toBeAttached();
});
