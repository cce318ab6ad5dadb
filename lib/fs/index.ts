export * from "./atomic";
export * from "./lock";
export * from "./safe-path";
