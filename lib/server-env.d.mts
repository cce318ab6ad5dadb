// Types of server-env.mjs.
export const SERVER_THREAD_POOL: string;
export function withServerThreadPool(env: Readonly<Record<string, string | undefined>>): NodeJS.ProcessEnv;
