// What `server-only` resolves to outside Next's react-server build (see register.mjs).
export {};
