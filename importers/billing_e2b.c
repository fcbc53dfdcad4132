/* billing_e2b.c: --format e2b-events, E2B sandbox lifecycle events, as the
 * events API's JSON array, saved webhook bodies or webhook JSON Lines
 * (docs/formats-billing.md):
 *
 *   {"id": "evt-3-k", "type": "sandbox.lifecycle.killed",
 *    "sandbox_id": "e2b-2565", "timestamp": "...Z",
 *    "event_data": {"execution": {"started_at": "...Z", "vcpu_count": 2,
 *                                 "memory_mb": 1024, "execution_time": 309678}}}
 *
 * Only sandbox.lifecycle.killed and .paused events carry an execution;
 * they become one metered line each: session = sandbox_id, charge start =
 * execution.started_at, end = start + execution_time (ms), vcpu_ms =
 * vcpu_count x execution_time, memory_mb_ms = memory_mb x execution_time,
 * no amount (priced at reconciliation), key = the event id.  Other event
 * types are skipped (counted), and so is a killed or paused event without
 * execution data ("eventData": null, as the v1 events API writes for a
 * kill, or no execution in it).  The API's camelCase keys (sandboxId,
 * eventData, startedAt, vcpuCount, memoryMB, executionTime) are read as
 * well as the webhook's snake_case (a v2 webhook body mixes them: a
 * camelCase envelope around a snake_case execution).
 */
#include "importers/billing.h"

#include <string.h>

/* The key of obj spelt snake (the webhook) or camel (the API): camel when
 * only that one is there, else snake (named in messages). */
static const char *pick(json_t *obj, const char *snake, const char *camel)
{
	return json_object_get(obj, snake) == NULL && json_object_get(obj, camel) != NULL ? camel : snake;
}

/* An object member of s named snake or camel into *inner, as a scope
 * whose messages say path; inner->obj NULL when it is missing or null.
 * SB_EDATA when it is not an object. */
static int nested(const sb_scope *s, const char *snake, const char *camel, const char *path,
                  sb_scope *inner, sb_err *why)
{
	const char *key = pick(s->obj, snake, camel);
	json_t *v = json_object_get(s->obj, key);

	*inner = (sb_scope){NULL, NULL, NULL, path, s->json};
	if (v == NULL || json_is_null(v))
		return SB_OK;
	if (!json_is_object(v))
		return sb_fail(why, SB_EDATA, "%s%s must be an object, not %s", s->path, key,
		               json_is_array(v) ? "an array" : json_is_string(v) ? "a string" : "a scalar");
	inner->obj = v;
	return SB_OK;
}

/* One event to a metered line, or none (see sb_bill_parse_fn). */
static int parse_e2b(sb_bill_parser *p, const sb_scope *s, sb_err *why)
{
	const char *type = NULL, *id = NULL, *sandbox = NULL, *exec_id = NULL;
	char data_path[32], exec_path[48];
	sb_scope data, exec;
	bool has = false;
	int64_t start = 0, vcpus = 0, memory_mb = 0, ms = 0, vcpu_ms = 0, memory_mb_ms = 0, end = 0;
	sb_bill_line *line;
	json_t *extra;

	if (sb_field_string(s, "type", true, 128, &type, why) != SB_OK)
		return why->code;
	if (strcmp(type, "sandbox.lifecycle.killed") != 0 && strcmp(type, "sandbox.lifecycle.paused") != 0)
		return SB_OK;
	snprintf(data_path, sizeof data_path, "%s.", pick(s->obj, "event_data", "eventData"));
	if (nested(s, "event_data", "eventData", data_path, &data, why) != SB_OK)
		return why->code;
	if (data.obj == NULL)
		return SB_OK;   /* no execution data: nothing to charge */
	snprintf(exec_path, sizeof exec_path, "%sexecution.", data_path);
	if (nested(&data, "execution", "execution", exec_path, &exec, why) != SB_OK)
		return why->code;
	if (exec.obj == NULL)
		return SB_OK;
	if (sb_field_string(s, "id", true, 256, &id, why) != SB_OK ||
	    sb_field_string(s, pick(s->obj, "sandbox_id", "sandboxId"), true, 256, &sandbox, why) != SB_OK ||
	    sb_field_string(s, pick(s->obj, "sandbox_execution_id", "sandboxExecutionId"), false, 256,
	                    &exec_id, why) != SB_OK ||
	    sb_field_time(&exec, pick(exec.obj, "started_at", "startedAt"), true, 0, &has, &start, why) != SB_OK ||
	    sb_field_count(&exec, pick(exec.obj, "vcpu_count", "vcpuCount"), true, &has, &vcpus, why) != SB_OK ||
	    sb_field_count(&exec, pick(exec.obj, "memory_mb", "memoryMB"), true, &has, &memory_mb, why) != SB_OK ||
	    sb_field_count(&exec, pick(exec.obj, "execution_time", "executionTime"), true, &has, &ms, why) != SB_OK)
		return why->code;
	if (__builtin_mul_overflow(vcpus, ms, &vcpu_ms) ||
	    __builtin_mul_overflow(memory_mb, ms, &memory_mb_ms) ||
	    __builtin_add_overflow(start, ms, &end))
		return sb_fail(why, SB_EDATA, "%sexecution_time is too large", exec_path);
	if ((line = sb_bill_emit(p)) == NULL)
		return sb_fail(why, SB_EINTERNAL, "out of memory");
	line->backend = "e2b";
	line->session_id = sandbox;
	line->start_ms = start;
	line->end_ms = end;
	line->kind = SB_LINE_METERED;
	line->has_metered = true;
	line->vcpu_ms = vcpu_ms;
	line->memory_mb_ms = memory_mb_ms;
	line->line_key = id;
	extra = json_pack("{ss}", "type", type);
	if (extra != NULL && exec_id != NULL)
		json_object_set_new(extra, "sandbox_execution_id", json_string(exec_id));
	line->extra = sb_bill_dump(p, extra);
	json_decref(extra);
	return SB_OK;
}

const sb_bill_format sb_bill_e2b_events = {
	"e2b-events", SB_REC_JSON_ARRAY | SB_REC_JSON_VALUES, NULL, 0, NULL, NULL, parse_e2b, false,
};
