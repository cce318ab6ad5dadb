export * from "./atomic";
export * from "./lock";
export * from "./open-regular";
export * from "./safe-path";
