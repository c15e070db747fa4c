import { expect, test } from "./support/fixtures";
import { createSessionInUi, openInInspector, sessionStatus } from "./support/pages";

test("an object reply renders as a collapsible JSON tree with a copy button", async ({ page }) => {
  await createSessionInUi(page, { mode: "headless", model: "sim:reply-object", prompt: "Report as an object." });
  await expect(sessionStatus(page)).toHaveAttribute("data-status", "ended");
  await openInInspector(page, "general");
  const reply = page.getByRole("region", { name: /Reply/ });
  await expect(reply).toContainText("object, as sent");
  const tree = reply.getByTestId("json-tree");
  await expect(tree).toBeVisible();
  await expect(tree.locator(".json-key", { hasText: "status" })).toBeVisible();
  await expect(tree.locator(".json-string", { hasText: '"ok"' })).toBeVisible();
  await expect(tree.locator(".json-number", { hasText: "3" })).toBeVisible();
  await expect(reply.getByTestId("markdown")).toHaveCount(0);

  // The `notes` array folds and unfolds.
  const notes = tree.getByRole("button", { name: /notes/ });
  await expect(notes).toHaveAttribute("aria-expanded", "true");
  await expect(tree.getByText('"a.md"')).toBeVisible();
  await notes.click();
  await expect(notes).toHaveAttribute("aria-expanded", "false");
  await expect(notes).toContainText("2 items");
  await expect(tree.getByText('"a.md"')).toHaveCount(0);
  await notes.press("Enter"); // keyboard too
  await expect(tree.getByText('"a.md"')).toBeVisible();
  await expect(tree.getByRole("button", { name: "Copy JSON" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/inspector-json-light.png" });
});

test("a string reply renders as Markdown, even one that looks like JSON", async ({ page }) => {
  await createSessionInUi(page, { mode: "headless", model: "sim:reply-markdown", prompt: "Report in Markdown." });
  await expect(sessionStatus(page)).toHaveAttribute("data-status", "ended");
  await openInInspector(page, "general");
  const reply = page.getByRole("region", { name: /Reply/ });
  await expect(reply).toContainText("string, rendered as Markdown");
  const md = reply.getByTestId("markdown");
  await expect(md.getByRole("heading", { name: "Findings" })).toBeVisible();
  await expect(md.locator("strong")).toHaveText("three");
  await expect(md.getByRole("listitem")).toHaveCount(3);
  await expect(md.locator("pre code")).toContainText('handoff run "refresh the config"');
  await expect(reply.getByTestId("json-tree")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/inspector-markdown-light.png" });

  // C1: a string starting with "{" stays a string; it is never parsed into a tree.
  await createSessionInUi(page, { mode: "headless", model: "sim:reply-string-brace", prompt: "Quote the config." });
  await expect(sessionStatus(page)).toHaveAttribute("data-status", "ended");
  await openInInspector(page, "general");
  const brace = page.getByRole("region", { name: /Reply/ });
  await expect(brace.getByTestId("markdown")).toContainText('{"status": "ok"} is what the config said');
  await expect(brace.getByTestId("json-tree")).toHaveCount(0);
});
