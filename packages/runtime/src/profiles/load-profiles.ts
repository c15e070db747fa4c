import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { builtinProfiles } from "./builtin-profiles";
import { parseProfile } from "./parse-profile";
import type { Profile } from "./profile";

export interface ProfileRegistry {
  get(name: string): Profile;
  names(): string[];
}

/** The built-ins plus every `*.md` in `dir` (a file may override a built-in of its name). */
export async function loadProfiles(dir: string): Promise<ProfileRegistry> {
  const profiles = new Map(Object.entries(builtinProfiles));
  if (existsSync(dir)) {
    for (const entry of (await readdir(dir)).filter((f) => f.endsWith(".md")).sort()) {
      const file = path.join(dir, entry);
      const profile = parseProfile(await readFile(file, "utf8"), file);
      const expected = entry.slice(0, -3);
      if (profile.name !== expected) throw new Error(`${file}: name: "${profile.name}" must match the file name "${expected}"`);
      profiles.set(profile.name, profile);
    }
  }
  return profileRegistry(profiles);
}

export function profileRegistry(profiles: Map<string, Profile>): ProfileRegistry {
  return {
    get(name) {
      const profile = profiles.get(name);
      if (!profile) throw new Error(`unknown profile "${name}"; known: ${[...profiles.keys()].sort().join(", ")}`);
      return profile;
    },
    names: () => [...profiles.keys()].sort(),
  };
}
