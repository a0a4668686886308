// The ceiling of a figure: the trivial authenticated route (GET /api/v1/auth/check) on the same
// server, with the same credential and concurrency as the figure, measured in the same rounds.

export const ceilingPhase = (token, concurrency) => ({
  key: "ceiling",
  label: `trivial route, ${concurrency} concurrent`,
  concurrency,
  make: () => ({ method: "GET", path: "/api/v1/auth/check", token }),
});
