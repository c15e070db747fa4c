import { expect, test } from "./support/fixtures";
import { createSessionInUi, openInInspector, screenshots, sessionStatus, treeNode } from "./support/pages";

test("a subagent cut by the length limit shows its failure, max_tokens and INCOMPLETE with its open todos; Resume is admitted", async ({ page }) => {
  await createSessionInUi(page, { model: "sim:explore-cut", prompt: "Survey the workspace." });
  await expect(page.getByRole("note")).toContainText("sim:explore-cut");
  const child = treeNode(page, "explore");
  await expect(child).toHaveAttribute("data-status", "failed");
  await expect(child).toHaveAttribute("data-verdict", "INCOMPLETE");
  await expect(child).toContainText("max_tokens");
  await expect(sessionStatus(page)).toHaveAttribute("data-status", "idle");

  await openInInspector(page, "explore");
  const badges = page.getByTestId("agent-badges");
  await expect(badges).toContainText("failed");
  await expect(badges).toContainText("INCOMPLETE");
  await expect(badges).toContainText("max_tokens"); // the failure tag
  await expect(page.getByTestId("stop-reason")).toContainText("max_tokens");
  await expect(page.getByTestId("stop-reason")).toContainText("length"); // the provider's raw finish reason
  await expect(page.getByTestId("verdict")).toHaveText("INCOMPLETE");
  await expect(page.getByTestId("open-todo-count")).toHaveText("2");
  await expect(page.locator('[data-rule="stop-abnormal"]')).toHaveAttribute("aria-current", "true");

  // No reply: the cut text is shown as partial, never as a result.
  const reply = page.getByRole("region", { name: /Reply/ });
  await expect(reply).toContainText("No reply");
  await expect(reply).toContainText("Partial text — not a reply");
  await expect(reply).toContainText("The README says that the");

  // The ledger at termination, with its two open items, and the resume hint naming them.
  const ledger = page.getByRole("region", { name: /Todo ledger/ });
  await expect(ledger.locator('[data-status="in_progress"]')).toContainText("Read the README");
  await expect(ledger.locator('[data-status="pending"]')).toContainText("Summarize the layout");
  await expect(page.getByTestId("resume-hint")).toContainText("It stopped with: max_tokens");
  await expect(page.getByTestId("resume-hint")).toContainText("Read the README");

  await screenshots(page, "inspector-cut");

  // Resume queues a resume message; the page shows it admitted, then the agent finishing.
  const resume = page.getByRole("region", { name: "Resume" }).getByRole("button", { name: "Resume" });
  await expect(resume).toBeEnabled();
  await resume.click();
  const message = page.getByTestId("resume-message");
  await expect(message).toHaveCount(1);
  await expect(message).toContainText(/msg_[0-9a-z]{26}/);
  await expect(message).toHaveAttribute("data-state", "admitted");
  await expect(page.getByTestId("verdict")).toHaveText("COMPLETE");
  await expect(page.getByRole("region", { name: /Reply/ })).toContainText("Resumed and finished");
});
