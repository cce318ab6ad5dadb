// Types of server-env.mjs.
export const SERVER_THREAD_POOL: string;
export const SERVER_MALLOC_TUNABLES: string;
export const SERVER_NODE_OPTION: string;
export function withServerEnv(env: Readonly<Record<string, string | undefined>>): NodeJS.ProcessEnv;
