/* provider_vercel.c: Vercel's billing API (docs/providers.md).
 *
 *   GET /v1/billing/charges?from=&to=   the team's charges as FOCUS JSON
 *                               Lines, streamed (gzip when offered); from
 *                               and to are RFC 3339 timestamps in UTC, to
 *                               excluded; imported as billing format focus
 *
 * The key is VERCEL_TOKEN, sent as a bearer token.  VERCEL_TEAM_ID (or
 * VERCEL_TEAM_SLUG) names the team, as the API's teamId (slug) parameter.
 * A response that pages says so with a Link: <...>; rel="next" header;
 * the pages are read as one stream.
 */
#include "importers/provider.h"

/* Query parameters from the environment. */
static const char *const env_params[] = {
	"teamId", "VERCEL_TEAM_ID",
	"slug", "VERCEL_TEAM_SLUG",
	NULL,
};

static const sb_endpoint endpoints[] = {
	{"billing", "/v1/billing/charges", "application/jsonl, application/x-ndjson;q=0.9",
	 SB_QUERY_RFC3339, {SB_PAGE_LINK, NULL, NULL}, 0, "focus", NULL,
	 "charges as FOCUS JSON Lines, imported as billing format focus"},
	{NULL, NULL, NULL, SB_QUERY_NONE, {SB_PAGE_NONE, NULL, NULL}, 0, NULL, NULL, NULL},
};

const sb_provider sb_provider_vercel = {
	"vercel", "https://api.vercel.com", "VERCEL_TOKEN", env_params, endpoints,
};
