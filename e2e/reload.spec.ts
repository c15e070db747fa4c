import { expect, test } from "./support/fixtures";
import { createSessionInUi, eventSeqs, sessionStatus } from "./support/pages";
import { query } from "./support/trpc";

test("a reload in the middle of a run resumes the stream with no gap and no duplicate row", async ({ page }) => {
  // A short window, so the event log overflows and can be scrolled away from its tail.
  await page.setViewportSize({ width: 1440, height: 720 });
  const sessionId = await createSessionInUi(page, { model: "sim:paced", prompt: "Survey the workspace, slowly." });
  await expect(page.locator('.events [data-type="todo.update"]').first()).toBeVisible();
  await expect(sessionStatus(page)).toHaveAttribute("data-status", "running");
  const before = Math.max(...(await eventSeqs(page)));

  await page.reload();
  // Still mid-run after the reload: what follows arrives live.
  await expect(sessionStatus(page)).toHaveAttribute("data-status", "running");
  await page.screenshot({ path: "test-results/screens/session-running-light.png" });

  // Steering joins the running turn at its next step boundary.
  await page.getByLabel("Message to the session").fill("Mention the README first.");
  await page.getByRole("button", { name: "Steer" }).click();
  await expect(page.getByTestId("last-sent")).toContainText(/Sent steer msg_[0-9a-z]{26}/);
  await expect(page.getByTestId("last-sent")).toHaveAttribute("data-state", "admitted");

  // Scrolled up, the stream stops following the tail; new rows are counted instead.
  const log = page.getByRole("region", { name: "Events" });
  const scroller = log.locator(".event-scroll");
  await expect.poll(() => scroller.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
  const jump = log.getByRole("button", { name: /Jump to latest/ });
  await expect(jump).toBeVisible();

  await expect(page.locator('.events [data-type="turn.end"]')).toHaveCount(1, { timeout: 20_000 });
  await expect(sessionStatus(page)).toHaveAttribute("data-status", "idle");
  await expect(jump).toContainText(/\(\d+ new\)/);
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(0);
  await jump.click();
  await expect(log.getByText("● following")).toBeVisible();
  expect(await scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(16);

  // Every event exactly once: nothing lost across the reload, nothing shown twice.
  const { lastSeq } = await query<{ lastSeq: number }>(page.request, "session.get", { sessionId });
  await expect(page.getByTestId("event-count")).toContainText(`${lastSeq} events · seq ${lastSeq}`);
  const seqs = await eventSeqs(page);
  expect(lastSeq).toBeGreaterThan(before);
  expect(new Set(seqs).size, "no duplicate rows").toBe(seqs.length);
  expect(seqs, "every seq once, in order, from 1").toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
});
