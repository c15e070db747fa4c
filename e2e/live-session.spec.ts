import { expect, test } from "./support/fixtures";
import { createSessionInUi, openInInspector, sessionStatus, treeNode } from "./support/pages";

test("a new session shows its events live, and a subagent's inspector shows its reply and a COMPLETE verdict", async ({ page }) => {
  // The model field is left empty: the service default, sim:demo — and the page says so plainly.
  await createSessionInUi(page, { mode: "interactive" });
  await expect(page.getByRole("note")).toContainText("Model: sim:demo");
  await expect(page.getByRole("note")).toContainText("not a real model");
  await expect(sessionStatus(page)).toHaveAttribute("data-status", "idle");
  const rows = page.locator(".events [data-seq]");
  await expect(rows).toHaveCount(1); // session.create: nothing has run yet

  // Enter sends; the message shows its id, then its admission.
  const box = page.getByLabel("Message to the session");
  await box.fill("Survey the workspace and summarize the design.");
  await box.press("Enter");
  const sent = page.getByTestId("last-sent");
  await expect(sent).toContainText(/Sent prompt msg_[0-9a-z]{26}/);
  const messageId = (await sent.getAttribute("data-message-id"))!;
  const inboxRow = page.getByRole("region", { name: /Inbox/ }).locator(`[data-message-id="${messageId}"]`);
  await expect(inboxRow).toBeVisible();
  await expect(inboxRow).toHaveAttribute("data-state", "admitted");
  await expect(sent).toHaveAttribute("data-state", "admitted");
  await expect(box).toHaveValue("");

  // Events arrive while we watch: the admission, the two subagents, their steps, the end of the turn.
  await expect(page.locator(`.events [data-type="message.admit"]`, { hasText: messageId })).toHaveCount(1);
  await expect(page.locator('.events [data-type="agent.spawn"]')).toHaveCount(2);
  await expect(page.locator('.events [data-type="agent.reply"]')).toHaveCount(2);
  await expect(page.locator('.events [data-type="turn.end"]')).toHaveCount(3);
  await expect(sessionStatus(page)).toHaveAttribute("data-status", "idle");
  expect(await rows.count()).toBeGreaterThan(20);

  // The agent tree updated live: both subagents done and COMPLETE.
  for (const i of [0, 1]) {
    await expect(treeNode(page, "explore", i)).toHaveAttribute("data-status", "done");
    await expect(treeNode(page, "explore", i)).toHaveAttribute("data-verdict", "COMPLETE");
  }

  // Any event expands to its JSON.
  const spawn = page.locator('.events [data-type="agent.spawn"]').first();
  await spawn.getByRole("button").click();
  await expect(spawn.getByRole("button")).toHaveAttribute("aria-expanded", "true");
  await expect(spawn.locator("pre")).toContainText('"childId": "agt_');

  // Filters by type and agent.
  await page.getByLabel("Type").selectOption("agent.reply");
  await expect(rows).toHaveCount(2);
  await page.getByLabel("Type").selectOption("");
  const childId = (await treeNode(page, "explore").getAttribute("data-agent-id"))!;
  await page.getByLabel("Agent", { exact: true }).selectOption(childId);
  await expect(rows.first()).toBeVisible();
  for (const agent of await rows.locator(".event-agent").allTextContents()) expect(agent).toContain("explore");
  await page.getByLabel("Agent", { exact: true }).selectOption("");

  // The inspector: the subagent's reply as sent, and its evidence.
  await openInInspector(page, "explore");
  await expect(page.getByRole("region", { name: /Reply/ })).toContainText("Done: looked around as asked; nothing needs attention.");
  await expect(page.getByTestId("verdict")).toHaveText("COMPLETE");
  await expect(page.getByTestId("stop-reason")).toContainText("reply");
  await expect(page.getByTestId("final-message-present")).toHaveText("yes");
  await expect(page.getByTestId("open-todo-count")).toHaveText("0");
  await expect(page.locator('[data-rule="todo-clean"]')).toHaveAttribute("aria-current", "true");
  await expect(page.getByRole("region", { name: /Transcript/ }).locator("details.step")).toHaveCount(3);
});
