export * from "./atomic";
export * from "./home-lock";
export * from "./lock";
export * from "./lock-leftovers";
export * from "./open-regular";
export * from "./safe-path";
export * from "./system-error";
