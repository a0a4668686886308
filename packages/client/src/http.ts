import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from "openapi-fetch";
import { ApiError } from "./errors.js";

export type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

/** Retrying answers 429 (rate limits): opt-in, after the Retry-After the service names. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 3). */
  attempts?: number;
  /** A wait longer than this gives up at once with the 429's ApiError (default 60). */
  maxWaitSeconds?: number;
}

export interface TransportOptions {
  /** The service's URL, e.g. `https://gamification.example.com`. */
  baseUrl: string;
  /** `true` or the limits of retrying 429 answers; off by default. */
  retry?: boolean | RetryOptions;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

type PathsWith<Paths, M extends HttpMethod> = {
  [P in keyof Paths]: Paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof Paths];
type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type InitArg<I> =
  RequiredKeysOf<I> extends never ? [(I & { [key: string]: unknown })?] : [I & { [key: string]: unknown }];
type Json = `${string}/${string}`;
/** What a successful call answers: the body of its 2xx response. */
export type Data<Operation, Init> = Extract<
  // biome-ignore lint/suspicious/noExplicitAny: openapi-fetch's own constraint on an operation
  FetchResponse<Operation & Record<string | number, any>, Init, Json>,
  { data: unknown }
>["data"];

/** Calls an operation and answers the body of its 2xx answer; any other answer throws ApiError. */
export type Call<Paths, M extends HttpMethod> = <
  P extends PathsWith<Paths, M>,
  I extends MaybeOptionalInit<Paths[P], M & keyof Paths[P]>,
>(
  path: P,
  ...init: InitArg<I>
) => Promise<Data<Paths[P][M & keyof Paths[P]], I>>;

/** The operations a credential may call, by path template; the body of the answer is returned, errors are thrown. */
export interface TypedApi<Paths extends {}> {
  get: Call<Paths, "get">;
  post: Call<Paths, "post">;
  put: Call<Paths, "put">;
  delete: Call<Paths, "delete">;
  /** The openapi-fetch client underneath, for the whole Response (`{data, response}`); it throws ApiError too. */
  raw: Client<Paths>;
  baseUrl: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The fetch every client uses: adds the credential, turns a non-2xx answer into an ApiError, and
 * (when asked) sends a request refused with 429 again after its Retry-After.
 */
function transport(options: TransportOptions, credential: () => string | Promise<string>) {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retry = options.retry === true ? {} : options.retry || undefined;
  const attempts = retry ? Math.max(1, retry.attempts ?? 3) : 1;
  const maxWait = retry?.maxWaitSeconds ?? 60;
  return async (request: Request): Promise<Response> => {
    for (let attempt = 1; ; attempt++) {
      const headers = new Headers(request.headers);
      headers.set("Authorization", `Bearer ${await credential()}`);
      for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
      // A copy per attempt: a body can be read once.
      const sent = new Request(request.clone(), { headers });
      const response = await send(sent);
      if (response.ok) return response;
      const error = await ApiError.from(sent, response);
      const wait = error.retry_after_seconds;
      if (error.status !== 429 || attempt >= attempts || wait === undefined || wait > maxWait) throw error;
      await sleep(wait * 1000);
    }
  };
}

/** A client of the operations in `allowed` (path template -> methods), with one credential. */
export function typedApi<Paths extends {}>(
  who: string,
  allowed: Readonly<Record<string, readonly string[]>>,
  options: TransportOptions,
  credential: () => string | Promise<string>,
): TypedApi<Paths> {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const raw = createClient<Paths>({ baseUrl, fetch: transport(options, credential) });
  raw.use({
    onRequest({ schemaPath, request }) {
      // The types allow only these; this stops plain JavaScript callers before anything is sent.
      if (!allowed[schemaPath]?.includes(request.method.toLowerCase())) {
        throw new TypeError(`${request.method} ${schemaPath} is not an operation of the ${who} client's credential`);
      }
    },
  });
  const call =
    (method: "GET" | "POST" | "PUT" | "DELETE") =>
    async (path: string, init?: object): Promise<unknown> =>
      (await (raw[method] as (p: string, i?: object) => Promise<{ data?: unknown }>)(path, init)).data;
  return {
    get: call("GET") as never,
    post: call("POST") as never,
    put: call("PUT") as never,
    delete: call("DELETE") as never,
    raw,
    baseUrl,
  };
}
