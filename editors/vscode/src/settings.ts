// The settings sent to the server; kept free of the vscode API so that it can be unit-tested.

/** Keys of the `relatex` section read only by the extension (the server does not know them). */
export const CLIENT_ONLY_KEYS: readonly string[] = ["server"];

/** The `relatex` settings section without the extension's own keys, as a plain JSON object. */
export function forServer(section: unknown): unknown {
  if (section === null || typeof section !== "object" || Array.isArray(section)) {
    return section;
  }
  const plain = JSON.parse(JSON.stringify(section)) as Record<string, unknown>;
  for (const key of CLIENT_ONLY_KEYS) {
    delete plain[key];
  }
  return plain;
}
