import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

export interface NewSession {
  mode?: "interactive" | "headless";
  model?: string;
  prompt?: string;
}

/** Creates a session the way a person does, from the sessions page, and lands on it. Returns its id. */
export async function createSessionInUi(page: Page, options: NewSession = {}): Promise<string> {
  await page.goto("/");
  await page.getByRole("button", { name: "New session" }).click();
  const form = page.getByRole("form", { name: "New session" });
  await form.getByLabel(options.mode ?? "interactive").check();
  if (options.model) await form.getByLabel("Model").fill(options.model);
  if (options.prompt) await form.getByLabel("First prompt").fill(options.prompt);
  await form.getByRole("button", { name: "Create session" }).click();
  await expect(page).toHaveURL(/\/sessions\/ses_[0-9a-z]{26}$/);
  return page.url().split("/").pop()!;
}

/** The agent tree's node for a profile (the first one, or the one at `index`). */
export function treeNode(page: Page, profile: string, index = 0) {
  return page.getByRole("navigation", { name: "Agent tree" }).locator(`li[data-profile="${profile}"]`).nth(index);
}

/** Opens an agent of the tree in the inspector. */
export async function openInInspector(page: Page, profile: string, index = 0): Promise<void> {
  await treeNode(page, profile, index).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/agents\/agt_[0-9a-z]{26}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(profile);
}

/** The whole-session status indicator. */
export function sessionStatus(page: Page) {
  return page.locator(".status-indicator");
}

/** Every event row's seq, in page order. */
export async function eventSeqs(page: Page): Promise<number[]> {
  return page.locator(".events [data-seq]").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-seq"))));
}

/** Full-page screenshots in light and dark, saved under test-results/screens. */
export async function screenshots(page: Page, name: string): Promise<string[]> {
  const paths: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const file = `test-results/screens/${name}-${colorScheme}.png`;
    await page.screenshot({ path: file, fullPage: true });
    paths.push(file);
  }
  await page.emulateMedia({ colorScheme: null });
  return paths;
}
