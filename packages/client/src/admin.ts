import { ADMIN_OPERATIONS, type AdminPaths } from "./generated/credentials.js";
import { type TransportOptions, type TypedApi, typedApi } from "./http.js";

export interface AdminClientOptions extends TransportOptions {
  /** The deployment's ADMIN_TOKEN. */
  adminToken: string;
  /** Names the caller in the audit log (`X-Actor`), e.g. "deploy-bot". */
  actor?: string;
}

export type AdminClient = TypedApi<AdminPaths>;

/** The operator: everything under `/api/v1/admin`, with the admin token. */
export function createAdminClient(options: AdminClientOptions): AdminClient {
  const headers = options.actor === undefined ? options.headers : { ...options.headers, "X-Actor": options.actor };
  return typedApi<AdminPaths>("admin", ADMIN_OPERATIONS, { ...options, headers }, () => options.adminToken);
}
