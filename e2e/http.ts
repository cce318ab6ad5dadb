import { request as httpRequest } from "node:http";

/** A raw HTTP request with exactly the headers given (Host included), for forged requests. */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; host?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const target = new URL(url);
  return new Promise((done, fail) => {
    const req = httpRequest(
      {
        host: options.host ?? target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? "GET",
        headers: options.headers,
        setHost: !options.headers || !Object.keys(options.headers).some((h) => h.toLowerCase() === "host"),
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", fail);
    if (options.body) req.write(options.body);
    req.end();
  });
}
