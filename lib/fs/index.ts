export * from "./atomic";
export * from "./safe-path";
