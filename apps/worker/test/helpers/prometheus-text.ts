/** Values of one series in Prometheus text format, keyed by their label set as written (`{}` when none). */
export function readSeries(text: string, name: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line.trim());
    if (m && m[1] === name) found.set(m[2] ?? "{}", Number(m[3]));
  }
  return found;
}

/** The value of a series with no labels, or with exactly the label text given. */
export function readValue(text: string, name: string, labels = "{}"): number | undefined {
  return readSeries(text, name).get(labels);
}
