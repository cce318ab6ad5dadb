/**
 * `lib/sessions/testing`: the chat writer (a stand-in for Oda writing its
 * logs) and the crash helpers (a cut save, an unfinished line, a dead lock
 * holder). For tests, benches, fixtures and the demo generator only: the app
 * never writes a chat log, so none of this is in the `lib/sessions` barrel.
 */
export * from "./writer";
