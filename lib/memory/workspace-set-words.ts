/** The sentence for a workspace with no memory set folder (browser-safe: no file access here). */
export const noWorkspaceSet = (key: string) => `No memory set exists for workspace ${key}.`;
