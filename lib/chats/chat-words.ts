/** The sentence for a chat id no folder of the log folder holds (browser-safe: the page that is not found says it too). */
export const noChatSentence = (id: string) => `No chat with the id "${id}" is in the log folder.`;
