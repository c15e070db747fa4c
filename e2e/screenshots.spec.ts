import { statSync } from "node:fs";
import { expect, test } from "./support/fixtures";
import { createSessionInUi, openInInspector, screenshots, sessionStatus } from "./support/pages";

test("screenshots of the session page, the inspector and the ops page are saved, light and dark", async ({ page }, testInfo) => {
  await createSessionInUi(page, { model: "sim:demo", prompt: "Survey the workspace and summarize the design." });
  const sessionPage = page.url();
  await expect(page.locator('.events [data-type="turn.end"]')).toHaveCount(3);
  await expect(sessionStatus(page)).toHaveAttribute("data-status", "idle");
  const files = await screenshots(page, "session");

  await openInInspector(page, "explore");
  await expect(page.getByTestId("verdict")).toHaveText("COMPLETE");
  files.push(...(await screenshots(page, "inspector")));

  await page.goto("/ops");
  await expect(page.getByRole("region", { name: /Workers/ }).locator('tr[data-state="running"]')).toHaveCount(1);
  files.push(...(await screenshots(page, "ops")));

  await page.goto("/");
  await expect(page.locator(`tr[data-session-id="${sessionPage.split("/").pop()}"]`)).toBeVisible();
  files.push(...(await screenshots(page, "sessions")));

  for (const file of files) {
    expect(statSync(file).size, file).toBeGreaterThan(10_000);
    await testInfo.attach(file.split("/").pop()!, { path: file, contentType: "image/png" });
  }
});
